// Mirrors data/shared/citizen/scripting/v8/timer.js (timers and tickers),
// code/components/citizen-server-impl/src/GameServer.cpp (the 1000 / 20 ms frame) and
// code/components/citizen-scripting-node/src/NodeScriptRuntime.cpp (explicit microtask queue,
// drained by timer.js's process._tickCallback() at the end of a tick).
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FRAME_MS, FxServer } from '../../../dev/emulator';

let server: FxServer;
beforeEach(async () => {
  vi.useFakeTimers();
  server = new FxServer();
  await server.start();
});
afterEach(() => {
  server.stop();
  vi.useRealTimers();
});

it('the server runs 20 frames a second: one per 50 ms of fake time (GameServer.cpp)', async () => {
  expect(FRAME_MS).toBe(50);
  expect(server.frameMs).toBe(50);
  const a = server.createScriptResource('a');
  a.eval(`frames = 0; setTick(() => { frames++; })`);
  await vi.advanceTimersByTimeAsync(49);
  expect(a.eval('frames')).toBe(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(a.eval('frames')).toBe(1);
  await vi.advanceTimersByTimeAsync(950);
  expect(a.eval('frames')).toBe(20);
});

it('a faster frame needs a reason', () => {
  expect(() => new FxServer({ fastFrame: { everyMs: 5, because: ' ' } })).toThrow(/reason/);
  const fast = new FxServer({ fastFrame: { everyMs: 5, because: 'a unit test of the emulator itself' } });
  expect(fast.frameMs).toBe(5);
});

it('setTimeout(fn, 0) and setImmediate wait for the next frame; a timer fires on the first frame after its delay', async () => {
  const a = server.createScriptResource('a');
  a.eval(`fired = []; setTimeout(() => fired.push('zero'), 0); setImmediate(() => fired.push('immediate'));
    setTimeout(() => fired.push('fifty'), 50); setTimeout(() => fired.push('sixty'), 60);`);
  await vi.advanceTimersByTimeAsync(49);
  expect(a.eval('fired')).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(a.eval('fired')).toEqual(['zero', 'immediate']);
  // timer.js fires when elapsed > interval: 50 ms after the frame is not yet > 50.
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('fired')).toEqual(['zero', 'immediate', 'fifty', 'sixty']);
});

it('setTimeout/setInterval fire on server frames under host fake time', async () => {
  const a = server.createScriptResource('a');
  a.eval(`fired = []; setTimeout(() => fired.push('t'), 1000); iv = setInterval(() => fired.push('i'), 400)`);
  // The interval runs on the frames after 400 ms: 450, then 900 (450 ms later).
  await vi.advanceTimersByTimeAsync(1000);
  expect(a.eval('fired')).toEqual(['i', 'i']);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('fired')).toEqual(['i', 'i', 't']);
  a.eval('clearInterval(iv)');
  await vi.advanceTimersByTimeAsync(2000);
  expect(a.eval('fired.length')).toBe(3);
});

it('handles have unref/ref/hasRef/refresh and Symbol.toPrimitive; clearTimeout(number) does nothing', async () => {
  const a = server.createScriptResource('a');
  a.eval(`hit = 0; h = setTimeout(() => hit++, 10);
    shape = [typeof h.unref, h.unref() === h, h.ref() === h, h.hasRef(), typeof +h];
    clearTimeout(+h);`);
  expect(a.eval('shape')).toEqual(['function', true, true, true, 'number']);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('hit')).toBe(1);
});

it('refresh restarts the countdown of a pending timer', async () => {
  const a = server.createScriptResource('a');
  a.eval(`hit = 0; h = setTimeout(() => hit++, 100)`);
  await vi.advanceTimersByTimeAsync(100);
  a.eval('h.refresh()');
  await vi.advanceTimersByTimeAsync(100);
  expect(a.eval('hit')).toBe(0);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('hit')).toBe(1);
});

it('refresh() on a timer that already fired does nothing (timer.js deleted it)', async () => {
  const a = server.createScriptResource('a');
  a.eval(`hit = 0; h = setTimeout(() => hit++, 10)`);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('hit')).toBe(1);
  a.eval('h.refresh()');
  await vi.advanceTimersByTimeAsync(500);
  expect(a.eval('hit')).toBe(1);
});

it('a timer cleared earlier in the same tick does not run; one added during a tick waits for the next', async () => {
  const a = server.createScriptResource('a');
  a.eval(`fired = [];
    first = setTimeout(() => { fired.push('first'); clearTimeout(second); setTimeout(() => fired.push('added'), 0); }, 10);
    second = setTimeout(() => fired.push('second'), 10);
    t1 = setTick(() => { fired.push('tick1'); clearTick(t2); });
    t2 = setTick(() => fired.push('tick2'));`);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('fired')).toEqual(['first', 'tick1']);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('fired')).toEqual(['first', 'tick1', 'added', 'tick1']);
});

it('no microtask runs between two timers of a tick; all run before the next frame', async () => {
  const a = server.createScriptResource('a');
  a.eval(`order = [];
    setTimeout(() => { Promise.resolve().then(() => order.push('micro')); process.nextTick(() => order.push('nextTick')); order.push('t1'); }, 10);
    setTimeout(() => order.push('t2'), 10);`);
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('order')).toEqual(['t1', 't2', 'nextTick', 'micro']);
});

it('timer globals are not writable', () => {
  const a = server.createScriptResource('a');
  a.eval(`setTimeout = null`);
  expect(a.eval('typeof setTimeout')).toBe('function');
  expect(a.eval(`Object.getOwnPropertyDescriptor(globalThis, 'setImmediate').writable`)).toBe(false);
});

it('setTick skips while its returned Promise is pending', async () => {
  const a = server.createScriptResource('a');
  a.eval(`calls = 0; release = null;
    setTick(() => { calls++; return new Promise((r) => { release = r; }); })`);
  await vi.advanceTimersByTimeAsync(100);
  expect(a.eval('calls')).toBe(1);
  a.eval('release()');
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('calls')).toBe(2);
});

it('a throwing timer is logged as SCRIPT ERROR in timer', async () => {
  const a = server.createScriptResource('a');
  a.eval(`setTimeout(() => { throw new Error('tick fail'); }, 1)`);
  await vi.advanceTimersByTimeAsync(50);
  expect(server.log.of('a').join('\n')).toContain('SCRIPT ERROR in timer: Error: tick fail');
});

it("a resource's Date reads the server's clock, so fake time moves it with the timers", async () => {
  const a = server.createScriptResource('a');
  const before = a.eval<number>('Date.now()');
  expect(before).toBe(Date.now());
  await vi.advanceTimersByTimeAsync(60_000);
  expect(a.eval<number>('Date.now()') - before).toBe(60_000);
  expect(a.eval('new Date(0) instanceof Date && typeof Date.UTC')).toBe('function');
});
