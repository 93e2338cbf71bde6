// SetHttpHandler over loopback HTTP, as FXServer serves it on the game port. Sources:
// ext/native-decls/SetHttpHandler.md, citizen-server-impl/src/ResourceHttpHandler.cpp,
// citizen-server-net/src/HttpServerManager.cpp, net-http-server/src/Http1Server.cpp and
// HttpServer.cpp (+ include/HttpServer.h), and main.js for how the wraps' funcrefs reach JS.
import { request as rawRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer, type ScriptResource } from '../../../dev/emulator';

let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

/** A resource whose handler records what it got and answers as `answer` says. */
function echoResource(
  name: string,
  answer = `res.writeHead(200, { 'X-Path': req.path }); res.send(req.method + ' ' + req.path);`,
): ScriptResource {
  const r = server.createScriptResource(name);
  r.eval(`
    globalThis.seen = [];
    SetHttpHandler((req, res) => {
      seen.push({ req, keys: Object.keys(req), proto: Object.getPrototypeOf(req) === Object.prototype });
      ${answer}
    });`);
  return r;
}

/** The raw bytes of one HTTP exchange (to see what FXServer would put on the wire). */
function raw(text: string): Promise<string> {
  const port = Number(new URL(server.httpUrl).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
      if (/\r\n0\r\n\r\n$/.test(out) || /Content-Length: (\d+)\r\n/.test(out)) socket.end();
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 1000);
  });
}

it('routes /<resource>/… to its handler with the prefix cut off, without case, query kept (HttpServerManager.cpp, ResourceHttpHandler.cpp)', async () => {
  const r = echoResource('panel');
  const a = await fetch(`${server.httpUrl}/panel/status.json?x=1`);
  expect(a.status).toBe(200);
  expect(await a.text()).toBe('GET /status.json?x=1');
  expect(await (await fetch(`${server.httpUrl}/PANEL/a`)).text()).toBe('GET /a');
  // `/panel` (no slash) matches the prefix minus its slash and becomes `/`.
  expect(await (await fetch(`${server.httpUrl}/panel`)).text()).toBe('GET /');
  expect(await (await fetch(`${server.httpUrl}/panel/`)).text()).toBe('GET /');
  const seen = r.global.seen as { req: Record<string, unknown>; keys: string[]; proto: boolean }[];
  // RequestWrap: MSGPACK_DEFINE_MAP(headers, method, address, path, setDataHandler, setCancelHandler),
  // unpacked in the resource's realm; the functions are funcrefs (main.js refFunctionUnpacker).
  expect(seen[0]!.keys).toEqual([
    'headers',
    'method',
    'address',
    'path',
    'setDataHandler',
    'setCancelHandler',
  ]);
  expect(seen[0]!.proto).toBe(true);
  expect(seen[0]!.req.address).toMatch(/^127\.0\.0\.1:\d+$/);
});

it("answers FXServer's 404s: unknown or stopped resource, and a resource without a handler (ResourceHttpHandler.cpp, HttpServerManager.cpp)", async () => {
  server.createScriptResource('quiet');
  const noHandler = await fetch(`${server.httpUrl}/quiet/x`);
  expect(noHandler.status).toBe(404);
  expect(noHandler.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(await noHandler.text()).toBe('Not found.');

  const unknown = await fetch(`${server.httpUrl}/nobody/x`);
  expect(unknown.status).toBe(404);
  expect(unknown.headers.get('content-type')).toBeNull();
  expect(await unknown.text()).toBe('Route /nobody/x not found.');

  echoResource('web');
  expect((await fetch(`${server.httpUrl}/web/`)).status).toBe(200);
  server.stopResource('web');
  const stopped = await fetch(`${server.httpUrl}/web/`);
  expect(stopped.status).toBe(404);
  expect(await stopped.text()).toBe('Route /web/ not found.');

  const root = await fetch(`${server.httpUrl}/`);
  expect(JSON.parse(await root.text())).toHaveProperty('version');
});

it('a restart without SetHttpHandler keeps the dead handler: no answer (ResourceHttpHandler.cpp m_handlerRef, RefScriptFunctions.cpp)', async () => {
  const r = server.startResource('flaky', process.cwd(), []);
  r.evaluate(`SetHttpHandler((req, res) => res.send('up'))`);
  expect(await (await fetch(`${server.httpUrl}/flaky/`)).text()).toBe('up');
  server.restartResource('flaky');
  const answer = await fetch(`${server.httpUrl}/flaky/`, { signal: AbortSignal.timeout(300) }).catch(
    (e: Error) => e.name,
  );
  expect(answer).toBe('TimeoutError');
  server.resource('flaky')!.evaluate(`SetHttpHandler((req, res) => res.send('again'))`);
  expect(await (await fetch(`${server.httpUrl}/flaky/`)).text()).toBe('again');
});

it('headers: names as sent, first value per exact name (Http1Server.cpp HeaderMap → std::map in RequestWrap)', async () => {
  const r = echoResource('h', `res.send(JSON.stringify(req.headers));`);
  const out = await raw(
    'GET /h/ HTTP/1.1\r\nHost: x\r\nX-Dup: one\r\nX-Dup: two\r\nx-dup: lower\r\nConnection: close\r\n\r\n',
  );
  const body = out.split('\r\n\r\n')[1]!;
  const json = JSON.parse(body.split('\r\n')[1]!);
  expect(json).toEqual({ Connection: 'close', Host: 'x', 'X-Dup': 'one', 'x-dup': 'lower' });
  expect(r.global.seen).toHaveLength(1);
});

it('the data handler gets the whole body once, as a string or with "binary" an ArrayBuffer, never without a body (Http1Server.cpp, HttpServer.h SetPendingData)', async () => {
  const r = echoResource(
    'body',
    `const got = [];
     req.setDataHandler((data) => got.push(typeof data + ':' + data));
     if (req.headers['X-Bin']) req.setDataHandler((data) => got.push(Object.prototype.toString.call(data) + ':' + data.byteLength), 'binary');
     setTimeout(() => res.send(JSON.stringify(got)), 200);`,
  );
  const post = await fetch(`${server.httpUrl}/body/`, { method: 'POST', body: 'a=1&b=2' });
  expect(JSON.parse(await post.text())).toEqual(['string:a=1&b=2']);
  const get = await fetch(`${server.httpUrl}/body/`);
  expect(JSON.parse(await get.text())).toEqual([]);
  expect(r.global.seen).toHaveLength(2);
  const bin = await fetch(`${server.httpUrl}/body/`, {
    method: 'PUT',
    headers: { 'X-Bin': '1' },
    body: new Uint8Array([0, 255, 1]),
  });
  // The first (text) handler was replaced before the body arrived: only the binary one runs.
  expect(JSON.parse(await bin.text())).toEqual(['[object ArrayBuffer]:3']);
});

it('a body read before setDataHandler is handed over when it is set; a chunked one is dropped (Http1Server.cpp)', async () => {
  echoResource(
    'late',
    `setTimeout(() => {
       let got = null;
       req.setDataHandler((d) => { got = d; });
       res.send(JSON.stringify(got));
     }, 200);`,
  );
  const length = await fetch(`${server.httpUrl}/late/`, { method: 'POST', body: 'pending' });
  expect(await length.text()).toBe('"pending"');
  const chunked = await raw(
    'POST /late/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\nlost\r\n0\r\n\r\n',
  );
  expect(chunked).toContain('\r\n4\r\nnull\r\n0\r\n\r\n');
});

it('response: writeHead sends the head at once, later writeHeads do nothing, write and send add body, chunked always (Http1Server.cpp)', async () => {
  echoResource(
    'resp',
    `res.writeHead(201, { 'X-One': 'a', 'Set-Cookie': ['a=1', 'b=2'], 'Content-Length': '999' });
     res.writeHead(500, { 'X-Two': 'b' });
     res.write('hello ');
     res.write('');
     res.send('world');`,
  );
  const out = await raw('GET /resp/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(out).toMatch(/^HTTP\/1\.1 201 /);
  expect(out).toContain('X-One: a\r\n');
  expect(out).toContain('Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n');
  expect(out).toContain('Transfer-Encoding: chunked\r\n');
  expect(out).not.toContain('Content-Length');
  expect(out).not.toContain('X-Two');
  expect(out).toMatch(/\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n$/);
});

it('send() with nothing written and no writeHead sends nothing at all (Http1Response::End)', async () => {
  echoResource('bare', 'res.send();');
  const answer = await fetch(`${server.httpUrl}/bare/`, { signal: AbortSignal.timeout(300) }).catch(
    (e: Error) => e.name,
  );
  expect(answer).toBe('TimeoutError');
  echoResource('head', 'res.writeHead(204); res.send();');
  expect((await fetch(`${server.httpUrl}/head/`)).status).toBe(204);
});

it('wrong argument types throw in the resource as a failed ref call (msgpack as<T> in ResourceHttpHandler.cpp, main.js)', async () => {
  const r = echoResource(
    'types',
    `const errors = [];
     for (const f of [() => res.write(42), () => res.writeHead('200'), () => res.writeHead(200, undefined), () => res.send(undefined)]) {
       try { f(); errors.push('ok'); } catch (e) { errors.push(String(e.message).startsWith('Error in nested ref call') ? 'threw' : e.message); }
     }
     globalThis.errors = errors;
     // bin is as<std::string> too: an ArrayBuffer is sent as bytes.
     res.send(new Uint8Array([98, 121, 116, 101, 115]).buffer);`,
  );
  expect(await (await fetch(`${server.httpUrl}/types/`)).text()).toBe('bytes');
  expect(r.global.errors).toEqual(['threw', 'threw', 'threw', 'threw']);
});

it('the cancel handler runs when the client leaves before send, not after (Http1Server.cpp close callback, HttpResponse::End)', async () => {
  const r = server.createScriptResource('slow');
  r.eval(`
    globalThis.cancels = [];
    SetHttpHandler((req, res) => {
      req.setCancelHandler(() => cancels.push(req.path));
      if (req.path === '/fast') res.send('ok');
    });`);
  expect(await (await fetch(`${server.httpUrl}/slow/fast`)).text()).toBe('ok');
  await new Promise<void>((resolve) => {
    const req = rawRequest(`${server.httpUrl}/slow/hang`);
    req.on('error', () => resolve());
    req.end();
    setTimeout(() => req.destroy(), 100);
  });
  await eventually(() => (r.global.cancels as string[]).length > 0);
  expect(r.global.cancels).toEqual(['/hang']);
});

it('the 11th request on one connection is answered with Connection: close (Http1Server.cpp pipelineLength)', async () => {
  echoResource('ka', `res.send('x');`);
  const one = 'GET /ka/ HTTP/1.1\r\nHost: x\r\n\r\n';
  const out = await raw(one.repeat(11));
  const heads = out.split('HTTP/1.1 200').slice(1);
  expect(heads).toHaveLength(11);
  expect(heads.slice(0, 10).every((h) => /Connection: keep-alive/i.test(h))).toBe(true);
  expect(heads[10]).toMatch(/Connection: close/i);
});

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}
