import { KeyRollingCount } from './key-rolling-count';
import type { RateLimitInfo } from './rate-limit-headers';

/** How far back our sends and the service's counts are compared to see other servers. */
const RATE_WINDOW_MS = 10_000;
/** Sends within `RATE_WINDOW_MS` that never wait on a shared key's pacing. */
const QUIET_SENDS = 5;

/**
 * What the service says is left for the key in its current window. Several game servers may
 * share one key, so this can be far less than our own bucket allows; when it is, the remaining
 * requests are spread evenly until the reset instead of being spent at once.
 */
export class ServerBudget {
  private remaining: number | undefined;
  private resetAtMs: number | undefined;
  private lastSendAt = Number.NEGATIVE_INFINITY;
  /** Our own sends of the last `RATE_WINDOW_MS`, oldest first. */
  private readonly sends: number[] = [];
  /** What the service said was left, and when, in the current window (a few, oldest first). */
  private readonly heard: { at: number; remaining: number }[] = [];
  /** The lowest ceiling the service has announced, if any. */
  announcedLimit: number | undefined;
  /** The key's requests in the last 60 s, every server on it counted. */
  readonly rolling = new KeyRollingCount();

  observe(info: RateLimitInfo, now: number): void {
    if (info.limit !== undefined) this.announcedLimit = info.limit;
    if (info.remaining === undefined) return;
    const resetAt = info.resetAtMs ?? now + 60_000;
    const current = this.resetAtMs;
    if (current === undefined || current <= now || resetAt > current + 1000) {
      // A new window (or the first we hear of).
      this.remaining = info.remaining;
      this.resetAtMs = resetAt;
      this.heard.length = 0;
    } else if (resetAt >= current - 1000) {
      // Same window: answers can arrive out of order, and within a window the count only falls.
      this.remaining = Math.min(this.remaining ?? info.remaining, info.remaining);
    }
    this.heard.push({ at: now, remaining: info.remaining });
    // Only a window the service named: one guessed per answer would count each answer's window
    // apart, and the same requests many times over.
    if (this.announcedLimit !== undefined && info.resetAtMs !== undefined) {
      this.rolling.record(now, resetAt, this.announcedLimit - info.remaining);
    }
    while (this.heard.length > 2 && now - this.heard[1]!.at >= RATE_WINDOW_MS) this.heard.shift();
  }

  /**
   * How many servers seem to share the key: 1 while the service's count falls only by our own
   * sends, else an estimate from how fast the others spend (at least 2, at most 8).
   */
  private sharers(now: number): number {
    const first = this.heard[0];
    const last = this.heard.at(-1);
    if (!first || !last || last.at - first.at < 1000) return this.othersSeen ? 2 : 1;
    const own = this.sends.filter((at) => at > first.at && at <= last.at).length;
    const others = first.remaining - last.remaining - own;
    if (others <= 1) return this.othersSeen ? 2 : 1;
    this.othersSeenAt = now;
    return Math.min(8, Math.max(2, Math.round(1 + others / Math.max(1, own))));
  }

  /** Others spent from the key within the last minute. */
  private get othersSeen(): boolean {
    return this.lastSendAt - this.othersSeenAt < 60_000;
  }

  private othersSeenAt = Number.NEGATIVE_INFINITY;

  /** Counts a send we are about to make against what the service said is left. */
  onSend(now: number): void {
    if (this.remaining !== undefined && this.resetAtMs !== undefined && now < this.resetAtMs) {
      this.remaining = Math.max(0, this.remaining - 1);
      if (this.announcedLimit !== undefined && this.rolling.knows(this.resetAtMs)) {
        this.rolling.record(now, this.resetAtMs, this.announcedLimit - this.remaining);
      }
    }
    this.lastSendAt = now;
    this.sends.push(now);
    while (this.sends.length > 0 && now - this.sends[0]! > RATE_WINDOW_MS) this.sends.shift();
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
    const sharers = this.sharers(now);
    if (sharers === 1 && remaining >= ownCapacity(resetAtMs - now)) return 0;
    // Others on the key send too, seen only in the headers of our answers: leave the last two
    // requests of the window alone (two servers taking the last one is a 429), and spend only
    // our share of the rest, spread evenly until the reset.
    const reserve = sharers > 1 ? 2 : 0;
    const ours = (remaining - reserve) / sharers;
    if (ours < 1) return resetAtMs - now;
    // While half the window is left a shared key is not paced (a short storm goes at its own
    // speed), and a join or two on a quiet one still go at once; only a run of sends into the
    // window's second half is spread.
    if (this.announcedLimit !== undefined && remaining * 2 >= this.announcedLimit) return 0;
    if (ours >= QUIET_SENDS * 2 && this.sends.length < QUIET_SENDS) return 0;
    if (this.lastSendAt === Number.NEGATIVE_INFINITY) return 0;
    const from = this.lastSendAt;
    const next = from + (resetAtMs - from) / (ours + 1);
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
