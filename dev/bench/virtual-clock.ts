import type { Clock, TimerHandle } from '../../src/platform/ports';

interface VirtualTimer extends TimerHandle {
  at: number;
  seq: number;
  callback: () => void;
}

/**
 * A clock for simulating hours in seconds: time stands still while real work is under way (HTTP
 * in flight, promises settling) and jumps to the next timer as soon as everything is idle.
 */
export class VirtualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<VirtualTimer>();

  constructor(
    start: number,
    /** True while real I/O is under way; time does not move until it is false. */
    private readonly busy: () => boolean,
  ) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer: VirtualTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, callback, unref() {} };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as VirtualTimer);
  }

  /** Runs virtual time forward by `ms`, firing timers in order, waiting for real work in between. */
  async run(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await this.idle();
      const next = this.nextTimer();
      if (!next || next.at > end) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      next.callback();
    }
    this.current = end;
    await this.idle();
  }

  /** Resolves once no I/O is in flight and promise chains have settled. */
  async idle(): Promise<void> {
    for (let quiet = 0; quiet < 3; ) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.busy()) {
        quiet = 0;
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
      } else quiet++;
    }
  }

  private nextTimer(): VirtualTimer | undefined {
    let best: VirtualTimer | undefined;
    for (const timer of this.timers) {
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    return best;
  }
}
