import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const ECHO = path.join(import.meta.dirname, 'fixtures/echo');
let server: FxServer;

beforeEach(async () => {
  server = new FxServer();
  await server.start();
  server.startResource('echo', ECHO);
});
afterEach(() => server.stop());

it('a colon call drops self and values cross through msgpack', async () => {
  const lua = await server.createLuaResource('luacaller');
  expect(await lua.run(`return exports.echo:sum(2, 3)`)).toBe(5);
  expect(await lua.run(`return exports.echo:invoker()`)).toBe('luacaller');
});

it('inside a thread an async export is awaited and returned directly', async () => {
  const lua = await server.createLuaResource('luacaller');
  expect(await lua.thread(`return exports.echo:later(42)`)).toBe(42);
  await lua.run(`Citizen.CreateThread(function() result = exports.echo:later('x') end)`);
  expect(await lua.run(`return result`)).toBe('x');
});

// scheduler.lua: files load in CreateThreadNow, so even a chunk's top level is a coroutine.
it('a chunk runs in a coroutine too: an async export comes back directly', async () => {
  const lua = await server.createLuaResource('luacaller');
  expect(await lua.run(`return coroutine.isyieldable()`)).toBe(true);
  expect(await lua.run(`return exports.echo:later(7)`)).toBe(7);
});

it('a throwing export raises the scheduler.lua error text in Lua', async () => {
  const lua = await server.createLuaResource('luacaller');
  const msg = await lua.run(`local ok, e = pcall(function() return exports.echo:fails() end) return e`);
  expect(String(msg)).toContain('An error occurred while calling export `fails` in resource `echo`');
  expect(server.log.of('echo').join('\n')).toContain('SCRIPT ERROR in call ref: Error: boom');
});

it('an unknown export is an error', async () => {
  const lua = await server.createLuaResource('luacaller');
  const msg = await lua.run(`local ok, e = pcall(function() return exports.echo:nothing() end) return e`);
  expect(String(msg)).toContain('No such export nothing in resource echo');
});
