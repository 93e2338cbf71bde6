/**
 * Counts sends in a rolling window, a hard ceiling under the token bucket: never more than
 * `limit` sends in any `windowMs`. Sends are grouped into slots of `slotMs` and a slot is counted
 * until its last possible send has left the window, so the count errs on the safe side.
 * Memory is bounded by the number of non-empty slots (at most windowMs / slotMs).
 */
export class SlidingWindow {
  private readonly starts: number[] = [];
  private readonly counts: number[] = [];
  private head = 0;
  private total = 0;

  constructor(
    private readonly windowMs: number,
    private readonly slotMs: number,
  ) {}

  /** Sends still inside the window at `now`. */
  count(now: number): number {
    this.prune(now);
    return this.total;
  }

  record(now: number): void {
    this.prune(now);
    const slot = now - (now % this.slotMs);
    const last = this.starts.length - 1;
    if (last >= this.head && this.starts[last] === slot) this.counts[last] = (this.counts[last] ?? 0) + 1;
    else {
      this.starts.push(slot);
      this.counts.push(1);
    }
    this.total += 1;
  }

  /** Milliseconds until fewer than `limit` sends are in the window (0 when already so). */
  msUntilBelow(limit: number, now: number): number {
    this.prune(now);
    let excess = this.total - limit + 1;
    if (excess <= 0) return 0;
    for (let i = this.head; i < this.starts.length; i++) {
      excess -= this.counts[i] ?? 0;
      if (excess <= 0) return this.expiry(this.starts[i] ?? now) - now;
    }
    return this.windowMs;
  }

  /**
   * The spacing from `lastAt` at which sends never find `limit` already in the window: before
   * each send in it leaves, only the room left now and the sends that left before it may go.
   * Sends made close together earlier are so spread over until they leave, not waited for once
   * the window is full. 0 when the window is empty; call only while below `limit`.
   */
  spacingBelow(limit: number, lastAt: number, now: number): number {
    this.prune(now);
    const room = limit - this.total;
    let spacing = 0;
    let left = 0;
    for (let i = this.head; i < this.starts.length; i++) {
      const leavesAt = this.expiry(this.starts[i] ?? now);
      spacing = Math.max(spacing, (leavesAt - lastAt) / (room + left + 1));
      left += this.counts[i] ?? 0;
    }
    return spacing;
  }

  private expiry(slotStart: number): number {
    return slotStart + this.slotMs - 1 + this.windowMs;
  }

  private prune(now: number): void {
    while (this.head < this.starts.length && this.expiry(this.starts[this.head] ?? 0) <= now) {
      this.total -= this.counts[this.head] ?? 0;
      this.head += 1;
    }
    if (this.head > 64 && this.head * 2 > this.starts.length) {
      this.starts.splice(0, this.head);
      this.counts.splice(0, this.head);
      this.head = 0;
    }
  }
}
