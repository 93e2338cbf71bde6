const MINUTE_MS = 60_000;

/** Fixed calendar-minute windows on the injected clock; only the current minute is kept. */
export class MinuteLimiter {
  private minute = -1;
  private readonly counts = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Counts the request unless the bucket is over `limit`; refused requests use no budget. */
  take(bucket: string, limit: number): { allowed: true } | { allowed: false; retryAfter: number } {
    const time = this.now();
    const minute = Math.floor(time / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts.clear();
    }
    const used = this.counts.get(bucket) ?? 0;
    if (used >= limit) {
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - time) / 1000)) };
    }
    this.counts.set(bucket, used + 1);
    return { allowed: true };
  }

  reset(): void {
    this.counts.clear();
  }
}
