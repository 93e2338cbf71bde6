const MINUTE_MS = 60_000;

export interface MinuteCount {
  /** Start of the minute (epoch ms). */
  at: number;
  requests: number;
  throttled: number;
}

/**
 * Requests sent to the roster service per wall-clock minute over the last hour: one slot per
 * minute, reused as the hour rolls on, so recording is O(1) and memory is fixed.
 */
export class MinuteCounts {
  private readonly minutes: number[];
  private readonly requests: number[];
  private readonly throttled: number[];

  constructor(readonly span = 60) {
    this.minutes = new Array<number>(span).fill(-1);
    this.requests = new Array<number>(span).fill(0);
    this.throttled = new Array<number>(span).fill(0);
  }

  add(now: number, throttled: boolean): void {
    const minute = Math.floor(now / MINUTE_MS);
    const slot = minute % this.span;
    if (this.minutes[slot] !== minute) {
      this.minutes[slot] = minute;
      this.requests[slot] = 0;
      this.throttled[slot] = 0;
    }
    this.requests[slot]! += 1;
    if (throttled) this.throttled[slot]! += 1;
  }

  /** The last `span` minutes up to `now`, oldest first, with zeros for quiet minutes. */
  series(now: number): MinuteCount[] {
    const current = Math.floor(now / MINUTE_MS);
    const out: MinuteCount[] = [];
    for (let minute = current - this.span + 1; minute <= current; minute++) {
      const slot = ((minute % this.span) + this.span) % this.span;
      const live = this.minutes[slot] === minute;
      out.push({
        at: minute * MINUTE_MS,
        requests: live ? this.requests[slot]! : 0,
        throttled: live ? this.throttled[slot]! : 0,
      });
    }
    return out;
  }
}
