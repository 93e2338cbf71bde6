import { describe, expect, it } from 'vitest';
import { KeyRollingCount } from '../../../src/http/limiter/key-rolling-count';

describe('KeyRollingCount', () => {
  it('knows nothing until the service says something', () => {
    expect(new KeyRollingCount().lastMinute(1_000)).toBeUndefined();
  });

  it('adds the part of the last window that is younger than 60 s to the current one', () => {
    const count = new KeyRollingCount();
    // Window ending at 60 s: 20 spent by 10 s, 80 by 50 s. Window ending at 120 s: 30 by 70 s.
    count.record(10_000, 60_000, 20);
    count.record(50_000, 60_000, 80);
    count.record(70_000, 120_000, 30);
    // From 15 s to 75 s: the 60 spent after 10 s (at most; 20 were spent by then), and 30.
    expect(count.lastMinute(75_000)).toBe(90);
    // From 55 s: nothing of the first window was said after it, so only the current one counts.
    expect(count.lastMinute(115_000)).toBe(30);
  });

  it('takes a whole window as recent when nothing said how much of it is older: it errs high', () => {
    const count = new KeyRollingCount();
    count.record(50_000, 60_000, 80);
    count.record(61_000, 120_000, 5);
    expect(count.lastMinute(100_000)).toBe(85);
  });

  it('keeps the highest count of a window whatever order answers come in', () => {
    const count = new KeyRollingCount();
    count.record(1_000, 60_000, 12);
    count.record(1_100, 60_000, 9);
    expect(count.lastMinute(2_000)).toBe(12);
  });

  it('ignores a daily window', () => {
    const count = new KeyRollingCount();
    count.record(1_000, 86_400_000, 500);
    expect(count.lastMinute(2_000)).toBeUndefined();
  });
});
