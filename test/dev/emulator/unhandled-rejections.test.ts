// Mirrors code/components/citizen-scripting-node/src/NodeParentEnvironment.cpp: FXServer runs
// Node with --unhandled-rejections=warn, so a lost rejection prints Node's warning and nothing
// else happens (main.js's own rejection routine is never called by the Node runtime).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

const settle = () => new Promise((r) => setTimeout(r, 20));

it("prints Node's warning to the resource's log, records it, and the resource keeps running", async () => {
  const a = server.createScriptResource('a');
  a.eval(`(async () => { throw new Error('lost'); })(); ticks = 0; setTick(() => { ticks++; })`);
  await settle();
  await server.nextTick();
  expect(server.unhandledRejections.map((r) => [r.resource, String(r.reason)])).toEqual([
    ['a', 'Error: lost'],
  ]);
  const log = server.log.of('a').join('\n');
  expect(log).toMatch(/\(node:\d+\) UnhandledPromiseRejectionWarning: Error: lost/);
  expect(log).toMatch(/--unhandled-rejections=strict.*\(rejection id: \d+\)/);
  expect(log).not.toContain('SCRIPT ERROR');
  expect(a.eval('ticks')).toBeGreaterThan(0);
  expect(server.resourceState('a')).toBe('started');
});

// NodeScriptRuntime.cpp Destroy drains the stopping resource's microtasks through Node's callback
// scope, which reports what was rejected by then; what the resource does later is never reported.
it('a handled rejection is not recorded; one rejected as the resource stops is, with its name', async () => {
  const a = server.createScriptResource('a');
  a.eval(
    `Promise.reject(new Error('handled')).catch(() => {}); late = new Promise((_, r) => { rejectLate = r; })`,
  );
  const rejectLate = a.eval<(e: unknown) => void>('rejectLate');
  server.stopResource('a');
  rejectLate('after stop');
  await settle();
  expect(server.unhandledRejections).toEqual([{ resource: 'a', reason: 'after stop' }]);
});

it('each server takes only its own resources rejections', async () => {
  const other = new FxServer();
  await other.start();
  try {
    other.createScriptResource('b').eval(`Promise.reject('from b')`);
    server.createScriptResource('a').eval(`Promise.reject('from a')`);
    await settle();
    expect(server.unhandledRejections).toEqual([{ resource: 'a', reason: 'from a' }]);
    expect(other.unhandledRejections).toEqual([{ resource: 'b', reason: 'from b' }]);
  } finally {
    other.stop();
  }
});
