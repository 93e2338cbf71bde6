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

it('a script using module.exports fails to load, as a classic script in FXServer does', () => {
  expect(() => server.startResource('bad', path.join(FIXTURES, 'bad-module'))).toThrow(
    /module is not defined/,
  );
  expect(server.resourceState('bad')).toBe('stopped');
  expect(server.log.of('bad').join('\n')).toContain('SCRIPT ERROR');
  const a = server.createScriptResource('a');
  expect(a.eval(`[typeof module, typeof __dirname, typeof require, typeof exports]`)).toEqual([
    'undefined',
    'undefined',
    'function',
    'function',
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
