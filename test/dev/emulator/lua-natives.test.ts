import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FxServer } from '../../../dev/emulator';

// What a JS caller gets from a Lua export follows main.js's refFunctionUnpacker
// (citizenfx/fivem data/shared/citizen/scripting/v8/main.js): one value is that value, several
// are an array, and a function that yields (Wait) answers with a Promise.
const LUAFILES = path.join(import.meta.dirname, 'fixtures/luafiles');
let server: FxServer;

beforeEach(async () => {
  vi.useFakeTimers();
  server = new FxServer({ convars: { luafiles_count: '3' } });
  await server.start();
});
afterEach(() => {
  server.stop();
  vi.useRealTimers();
});

it('a Lua resource starts from its folder: the manifest files run in order', async () => {
  await server.startLuaResource('luafiles', LUAFILES);
  const caller = server.createScriptResource('caller');
  expect(caller.exports.luafiles!.order!()).toEqual(['first', 'second']);
  expect(caller.exports.luafiles!.convarInt!()).toBe(3);
});

it('several return values reach JS as an array, one as the value', async () => {
  await server.startLuaResource('luafiles', LUAFILES);
  const caller = server.createScriptResource('caller');
  expect(caller.exports.luafiles!.twoValues!()).toEqual([
    false,
    { code: 'job_not_found', message: 'no such job' },
  ]);
  expect(caller.exports.luafiles!.oneValue!()).toBe(7);
});

it('an export that waits answers JS with a Promise, settled on the frames after the wait', async () => {
  await server.startLuaResource('luafiles', LUAFILES);
  const caller = server.createScriptResource('caller');
  const answer = caller.exports.luafiles!.afterWait!(200) as Promise<unknown>;
  expect(answer).toBeInstanceOf(caller.runtime.realm.global.Promise as PromiseConstructor);
  let settled: unknown;
  void answer.then((v) => (settled = v));
  await vi.advanceTimersByTimeAsync(100);
  expect(settled).toBeUndefined();
  await vi.advanceTimersByTimeAsync(200);
  expect(settled).toEqual(['waited', 'plain']);
});

it('a stopped Lua resource answers nothing more', async () => {
  await server.startLuaResource('luafiles', LUAFILES);
  const caller = server.createScriptResource('caller');
  server.stopResource('luafiles');
  expect(() => caller.exports.luafiles!.oneValue!()).toThrow();
});
