import type { Clock, TimerHandle } from '../../../src/platform/ports';

interface FakeTimer extends TimerHandle {
  at: number;
  seq: number;
  callback: () => void;
}

/** An injected clock whose time only moves when a test advances it; nothing is slept through. */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<FakeTimer>();

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer: FakeTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, callback, unref() {} };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as FakeTimer);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting promises settle between. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await settle();
    for (;;) {
      const next = this.nextTimer();
      if (!next || next.at > target) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      next.callback();
      await settle();
    }
    this.current = target;
    await settle();
  }

  private nextTimer(): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const timer of this.timers) {
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    return best;
  }
}

/** Lets pending promise chains and I/O callbacks run (a few macrotask turns, no waiting). */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The largest number of events in any window of `windowMs` (events sorted ascending). */
export function maxInAnyWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
