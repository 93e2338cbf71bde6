import { describe, expect, it } from 'vitest';
import { checkMarginMs, watchdogAfterMs } from '../../../src/features/join-gate/deadline';

describe('sharing gate.timeoutSeconds', () => {
  it('the watchdog decides a tenth before the deadline, at least 0.3 s and at most 1 s before', () => {
    expect(watchdogAfterMs(15_000)).toBe(14_000);
    expect(watchdogAfterMs(300_000)).toBe(299_000);
    expect(watchdogAfterMs(5000)).toBe(4500);
    expect(watchdogAfterMs(2000)).toBe(1700);
    expect(watchdogAfterMs(1000)).toBe(700);
  });

  it('further checks answer 0.25 s before the watchdog, less on a short gate, and always get most of it', () => {
    expect(checkMarginMs(watchdogAfterMs(15_000))).toBe(250);
    expect(checkMarginMs(watchdogAfterMs(1000))).toBe(116);
    for (const timeoutMs of [1000, 1500, 2000, 5000, 15_000, 300_000]) {
      const watchdog = watchdogAfterMs(timeoutMs);
      const checksUntil = watchdog - checkMarginMs(watchdog);
      expect(checksUntil).toBeGreaterThanOrEqual(timeoutMs * 0.55);
      expect(checksUntil).toBeLessThan(watchdog);
      expect(watchdog).toBeLessThan(timeoutMs);
    }
  });
});
