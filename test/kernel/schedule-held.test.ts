import { describe, expect, it } from 'vitest';
import { Schedule } from '../../src/kernel/schedule';
import { FakeClock } from '../http/limiter/fake-clock';

describe('a schedule held while something says so', () => {
  it('skips the runs that fall while held, runs the others, and stops with the schedule it views', async () => {
    const clock = new FakeClock();
    const schedule = new Schedule(clock, () => 0.5);
    let held = true;
    const view = schedule.heldWhile(() => held);
    const runs: number[] = [];
    let once = 0;
    view.every(1_000, () => void runs.push(clock.now()));
    view.once(0, () => once++);
    await clock.advance(3_000);
    expect(runs).toEqual([]);
    expect(once).toBe(0);
    held = false;
    await clock.advance(2_000);
    expect(runs).toHaveLength(2);
    schedule.stop();
    await clock.advance(5_000);
    expect(runs).toHaveLength(2);
  });
});
