import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FxServer } from '../../../dev/emulator';

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

it('setTimeout/setInterval fire on server ticks under host fake time', async () => {
  const a = server.createScriptResource('a');
  a.eval(`fired = []; setTimeout(() => fired.push('t'), 1000); iv = setInterval(() => fired.push('i'), 400)`);
  await vi.advanceTimersByTimeAsync(999);
  expect(a.eval('fired')).toEqual(['i', 'i']);
  await vi.advanceTimersByTimeAsync(5);
  expect(a.eval('fired')).toContain('t');
  a.eval('clearInterval(iv)');
  const n = a.eval<string[]>('fired.length');
  await vi.advanceTimersByTimeAsync(2000);
  expect(a.eval('fired.length')).toBe(n);
});

it('handles have unref/ref/hasRef/refresh and Symbol.toPrimitive; clearTimeout(number) does nothing', async () => {
  const a = server.createScriptResource('a');
  a.eval(`hit = 0; h = setTimeout(() => hit++, 50);
    shape = [typeof h.unref, h.unref() === h, h.ref() === h, h.hasRef(), typeof +h];
    clearTimeout(+h);`);
  expect(a.eval('shape')).toEqual(['function', true, true, true, 'number']);
  await vi.advanceTimersByTimeAsync(60);
  expect(a.eval('hit')).toBe(1);
});

it('refresh restarts the countdown', async () => {
  const a = server.createScriptResource('a');
  a.eval(`hit = 0; h = setTimeout(() => hit++, 100)`);
  await vi.advanceTimersByTimeAsync(80);
  a.eval('h.refresh()');
  await vi.advanceTimersByTimeAsync(80);
  expect(a.eval('hit')).toBe(0);
  await vi.advanceTimersByTimeAsync(40);
  expect(a.eval('hit')).toBe(1);
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
  await vi.advanceTimersByTimeAsync(50);
  expect(a.eval('calls')).toBe(1);
  a.eval('release()');
  await vi.advanceTimersByTimeAsync(5);
  expect(a.eval('calls')).toBe(2);
});

it('a throwing timer is logged as SCRIPT ERROR in timer', async () => {
  const a = server.createScriptResource('a');
  a.eval(`setTimeout(() => { throw new Error('tick fail'); }, 1)`);
  await vi.advanceTimersByTimeAsync(10);
  expect(server.log.of('a').join('\n')).toContain('SCRIPT ERROR in timer: Error: tick fail');
});
