/**
 * The burst allowance: up to `capacity` requests go at once after a quiet spell; once spent,
 * tokens refill continuously, so requests are paced evenly.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private ratePerMs: number,
    private capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  /** Changes the refill rate and burst size, keeping (at most) the tokens already saved. */
  reconfigure(ratePerMs: number, capacity: number, now: number): void {
    this.refill(now);
    this.ratePerMs = ratePerMs;
    this.capacity = capacity;
    this.tokens = Math.min(this.tokens, capacity);
  }

  /** Whole tokens available now. */
  available(now: number): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }

  /** Milliseconds until one token is available (0 when one is). */
  msUntilToken(now: number): number {
    this.refill(now);
    if (this.tokens >= 1) return 0;
    return Math.ceil((1 - this.tokens) / this.ratePerMs);
  }

  take(now: number): void {
    this.refill(now);
    this.tokens -= 1;
  }

  /** Milliseconds between tokens at the steady rate. */
  get intervalMs(): number {
    return 1 / this.ratePerMs;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updatedAt);
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.ratePerMs);
    this.updatedAt = now;
  }
}
