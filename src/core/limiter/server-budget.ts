import type { RateLimitInfo } from './rate-limit-headers';

/**
 * What the service says is left for the key in its current window. Several game servers may
 * share one key, so this can be far less than our own bucket allows; when it is, the remaining
 * requests are spread evenly until the reset instead of being spent at once.
 */
export class ServerBudget {
  private remaining: number | undefined;
  private resetAtMs: number | undefined;
  private lastSendAt = Number.NEGATIVE_INFINITY;
  /** The lowest ceiling the service has announced, if any. */
  announcedLimit: number | undefined;

  observe(info: RateLimitInfo, now: number): void {
    if (info.limit !== undefined) this.announcedLimit = info.limit;
    if (info.remaining === undefined) return;
    const resetAt = info.resetAtMs ?? now + 60_000;
    const current = this.resetAtMs;
    if (current === undefined || current <= now || resetAt > current + 1000) {
      // A new window (or the first we hear of).
      this.remaining = info.remaining;
      this.resetAtMs = resetAt;
    } else if (resetAt >= current - 1000) {
      // Same window: answers can arrive out of order, and within a window the count only falls.
      this.remaining = Math.min(this.remaining ?? info.remaining, info.remaining);
    }
  }

  /** Counts a send we are about to make against what the service said is left. */
  onSend(now: number): void {
    if (this.remaining !== undefined && this.resetAtMs !== undefined && now < this.resetAtMs) {
      this.remaining = Math.max(0, this.remaining - 1);
    }
    this.lastSendAt = now;
  }

  /** Sets the budget to nothing until `untilMs` (after a 429). */
  exhaust(untilMs: number): void {
    this.remaining = 0;
    this.resetAtMs = untilMs;
  }

  /**
   * Milliseconds until the service's budget allows a send. `ownCapacity` is how many sends our own
   * limits allow before the reset anyway; while the service allows at least that, no extra pacing.
   */
  msUntilAllowed(now: number, ownCapacity: (windowMs: number) => number): number {
    const { remaining, resetAtMs } = this;
    if (remaining === undefined || resetAtMs === undefined || now >= resetAtMs) return 0;
    if (remaining <= 0) return resetAtMs - now;
    if (remaining >= ownCapacity(resetAtMs - now)) return 0;
    if (this.lastSendAt === Number.NEGATIVE_INFINITY) return 0;
    const from = this.lastSendAt;
    const next = from + (resetAtMs - from) / (remaining + 1);
    return Math.max(0, Math.ceil(next - now));
  }

  /** Remaining requests in the service's window, when known and still current. */
  remainingAt(now: number): number | undefined {
    if (this.resetAtMs === undefined || now >= this.resetAtMs) return undefined;
    return this.remaining;
  }

  resetAt(now: number): number | undefined {
    return this.resetAtMs !== undefined && now < this.resetAtMs ? this.resetAtMs : undefined;
  }
}
