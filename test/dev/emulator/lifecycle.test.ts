import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

it('loads scripts from fxmanifest.lua into one global scope and fires onResourceStart/Stop to all', () => {
  const watcher = server.createScriptResource('watcher');
  watcher.eval(
    `events = []; on('onResourceStart', (r) => events.push(['start', r])); on('onResourceStop', (r) => events.push(['stop', r]))`,
  );
  server.startResource('echo', path.join(FIXTURES, 'echo'));
  expect(server.createScriptResource('c').exports.echo!.seen!()).toEqual([]);
  server.stopResource('echo');
  expect(watcher.eval('events')).toEqual([
    ['start', 'echo'],
    ['start', 'c'],
    ['stop', 'echo'],
  ]);
});

// NodeScriptRuntime.cpp prints "Error loading script …" and ResourceScriptingComponent.cpp
// carries on: the resource is started anyway and onResourceStart still fires.
it('a script using module.exports fails to load, yet the resource is started and onResourceStart fires', () => {
  const watcher = server.createScriptResource('watcher');
  watcher.eval(`started = []; on('onResourceStart', (r) => started.push(r))`);
  server.startResource('bad', path.join(FIXTURES, 'bad-module'), ['server.js', 'after.js']);
  expect(server.resourceState('bad')).toBe('started');
  expect(watcher.eval('started')).toEqual(['bad']);
  const log = server.log.of('bad').join('\n');
  expect(log).toContain(
    'Error loading script @bad/server.js in resource bad: ReferenceError: module is not defined',
  );
  expect(log).toContain('Failed to load script @bad/server.js.');
  // The next file still loads into the half-initialised resource.
  expect(server.createScriptResource('c').exports.bad!.loaded!()).toBe(true);
  const a = server.createScriptResource('a');
  expect(a.eval(`[typeof module, typeof __dirname, typeof require, typeof exports]`)).toEqual([
    'undefined',
    'undefined',
    'function',
    'function',
  ]);
});

it('onServerResourceStart and onServerResourceStop arrive on the next frame (QueueEvent2), onResourceStart/Stop at once', async () => {
  const watcher = server.createScriptResource('watcher');
  watcher.eval(`events = [];
    for (const e of ['onResourceStart', 'onServerResourceStart', 'onResourceStop', 'onServerResourceStop']) on(e, (r) => events.push([e, r]));`);
  await server.nextTick();
  watcher.eval('events.length = 0');
  server.startResource('echo', path.join(FIXTURES, 'echo'));
  expect(watcher.eval('events')).toEqual([['onResourceStart', 'echo']]);
  await server.nextTick();
  expect(watcher.eval('events')).toEqual([
    ['onResourceStart', 'echo'],
    ['onServerResourceStart', 'echo'],
  ]);
  server.stopResource('echo');
  expect(watcher.eval('events.length')).toBe(3);
  await server.nextTick();
  expect(watcher.eval<unknown[]>('events').slice(2)).toEqual([
    ['onResourceStop', 'echo'],
    ['onServerResourceStop', 'echo'],
  ]);
});

it('a native the emulator lacks throws not emulated: NAME', () => {
  const a = server.createScriptResource('a');
  expect(() => a.eval(`GetPlayerPed(1)`)).toThrow('not emulated: GetPlayerPed');
  expect(() => a.eval(`Entity(5).state`)).toThrow(/not emulated: NetworkGetNetworkIdFromEntity/);
});

it('restart with players online: handlers, timers, commands go; a fresh scope comes back', async () => {
  const a = server.createScriptResource('a', path.join(FIXTURES, 'echo'));
  a.eval(`counter = 0; setInterval(() => counter++, 1); RegisterCommand('hey', () => {}, false)`);
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: ['license:x'] }).decision) as {
    id: number;
  };
  const old = a.runtime;
  server.restartResource('a');
  const fresh = server.resource('a')!;
  expect(fresh).not.toBe(old);
  expect(fresh.evaluate('typeof counter')).toBe('undefined');
  const before = old.evaluate('counter') as number;
  await server.nextTick();
  await server.nextTick();
  expect(old.evaluate('counter')).toBe(before);
  server.executeCommand('hey');
  expect(server.log.of('server')).toContain('No such command hey.');
  expect(fresh.evaluate(`GetPlayerName(${id})`)).toBe('P');
});

it('a resource can do an HTTP GET on loopback with global fetch and with bundled undici', async () => {
  const http = await import('node:http');
  const { build } = await import('esbuild');
  const srv = http.createServer((_req, res) => res.end('pong'));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  const bundled = await build({
    stdin: {
      contents: `import { request } from 'undici'; globalThis.undiciGet = async (u) => (await request(u)).body.text();`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    write: false,
    logLevel: 'silent',
  });
  const a = server.createScriptResource('a');
  a.eval(bundled.outputFiles[0]!.text);
  const url = `http://127.0.0.1:${port}/`;
  expect(await a.eval(`fetch('${url}').then((r) => r.text())`)).toBe('pong');
  expect(await a.eval(`undiciGet('${url}')`)).toBe('pong');
  srv.close();
});
