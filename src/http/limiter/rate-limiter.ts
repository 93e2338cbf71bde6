import type { Clock, TimerHandle } from '../../platform/ports';
import { FleetPace } from './fleet-pace';
import type { FleetUsage } from './fleet-usage';
import { KeyDay } from './key-day';
import { LANES, type Lane, perLane } from './lane';
import { LaneQueues, type WaitOptions } from './lane-queues';
import { LimiterClosedError } from './limiter-closed-error';
import type { LimiterState } from './limiter-state';
import type { RateLimitInfo } from './rate-limit-headers';
import type { RateLimiterOptions } from './rate-limiter-options';
import { ServerBudget } from './server-budget';
import { SlidingWindow } from './sliding-window';
import { TokenBucket } from './token-bucket';

export type AcquireOptions = WaitOptions;
export type { RateLimiterOptions };

const MINUTE_MS = 60_000;
/**
 * While the others alone fill the key's minute, how long until it is looked at again: their
 * requests leave the minute as they came, and their counts are read again about once a second.
 */
const FLEET_RECHECK_MS = 1_000;

/**
 * A proactive limiter shared by every request of one API key. While the recent minute is quiet a
 * request goes at once (a burst of up to a quarter of the minute); only when that burst is spent,
 * i.e. under a queue or when the minute's budget runs low, are requests paced, at a rate that
 * with the burst never adds up to more than the minute allows. A rolling window keeps the minute
 * ceiling hard and `KeyDay` the day's (restarts and the other servers on the key included), the
 * service's own `X-RateLimit-*` view is followed after every response, and a 429 stops every lane.
 */
export class RateLimiter {
  private readonly clock: Clock;
  private readonly configuredPerMinute: number;
  private perMinute: number;
  private readonly bucket: TokenBucket;
  private readonly minute = new SlidingWindow(MINUTE_MS, 1);
  /** The key's day: this server's requests (kept across restarts), the service's day, the others'. */
  readonly day: KeyDay;
  private readonly server = new ServerBudget();
  private readonly defaultPauseMs: number;
  private readonly queues = new LaneQueues();
  private readonly burst: number | undefined;
  private pausedUntil = 0;
  private others: FleetUsage = () => null;
  private readonly pace: FleetPace;
  private timer: TimerHandle | undefined;
  private closed = false;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.configuredPerMinute = Math.max(1, Math.floor(options.perMinute));
    this.perMinute = this.configuredPerMinute;
    const perDay = options.perDay ? Math.max(1, Math.floor(options.perDay)) : null;
    this.burst = options.burst;
    const burst = this.burstFor(this.perMinute);
    this.bucket = new TokenBucket(this.refillPerMs(this.perMinute, burst), burst, this.clock.now());
    this.day = new KeyDay({
      perDay,
      minuteLimit: this.configuredPerMinute,
      ...(options.dayReserve ? { reserve: options.dayReserve } : {}),
      ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
    });
    this.defaultPauseMs = options.defaultPauseMs ?? 30_000;
    this.pace = new FleetPace(this.minute);
  }

  /** Resolves when a request in `lane` may be sent; each resolution counts as one request. */
  acquire(lane: Lane, options: AcquireOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new LimiterClosedError());
    const waiting = this.queues.wait(lane, options, () => this.pump());
    this.pump();
    return waiting;
  }

  /**
   * The other servers' counts of the key's minute and day (`null` to stop): the minute's ceiling
   * and the day's are kept for all of them together, and the key's minute as the mirror's pacer
   * reads it includes theirs. While others send, this server keeps to its fair part of the minute
   * (`FleetPace`), paced evenly.
   */
  shareWith(others: FleetUsage | null): void {
    this.others = others ?? (() => null);
    this.day.othersFromFleet(others ? () => this.others()?.day ?? null : null);
    this.pump();
  }

  /** Follows what a response said about the key's limit (call after every response but a 429). */
  observe(info: RateLimitInfo): void {
    this.follow(info, this.clock.now());
    this.pump();
  }

  /**
   * After a 429 (instead of `observe`): follows its headers and stops every lane until Retry-After
   * has passed (else until the window resets, else a default pause), before any waiting request is
   * let go. Returns how long requests now wait, in milliseconds.
   */
  pauseAfterRateLimited(info: RateLimitInfo): number {
    const now = this.clock.now();
    this.follow(info, now);
    const reset = info.resetAtMs !== undefined && info.resetAtMs > now ? info.resetAtMs - now : undefined;
    const waitMs = info.retryAfterMs ?? reset ?? this.defaultPauseMs;
    this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
    this.server.exhaust(this.pausedUntil);
    this.pump();
    return this.pausedUntil - now;
  }

  /** True while a 429's pause holds every request: none may leave, granted or not. */
  isPaused(): boolean {
    return this.pausedUntil > this.clock.now();
  }

  state(): LimiterState {
    const now = this.clock.now();
    const others = this.others()?.minute ?? 0;
    const ownMinute = Math.max(0, this.perMinute - this.minute.count(now) - others);
    const serverRemaining = this.server.remainingAt(now);
    const heard = this.server.rolling.lastMinute(now) ?? null;
    const fleet = others > 0 ? this.minute.count(now) + others : null;
    return {
      perMinute: this.perMinute,
      perDay: this.day.ceiling(now),
      remainingThisMinute: Math.min(ownMinute, serverRemaining ?? ownMinute),
      remainingToday: this.day.remaining(now),
      keyUsedLastMinute: fleet === null ? heard : Math.max(heard ?? 0, fleet),
      resetAt: this.server.resetAt(now) ?? null,
      pausedUntil: this.pausedUntil > now ? this.pausedUntil : null,
      queued: perLane((lane) => this.queues.size(lane)),
    };
  }

  /**
   * True while a request in `lane` would go at once but less than a quarter of the burst is left:
   * the budget is running low, and merging small batches saves requests.
   */
  isBusy(lane: Lane): boolean {
    const now = this.clock.now();
    return this.estimateWaitMs(lane) === 0 && this.bucket.available(now) * 4 < this.burstFor(this.perMinute);
  }

  /** A rough estimate of how long a request added to `lane` now would wait, in milliseconds. */
  estimateWaitMs(lane: Lane): number {
    const now = this.clock.now();
    const ahead = this.queues.ahead(lane);
    let wait = Math.max(this.sharedWaitMs(now), this.dayWaitMs(lane, now));
    const serverRemaining = this.server.remainingAt(now);
    const resetAt = this.server.resetAt(now);
    if (serverRemaining !== undefined && resetAt !== undefined && serverRemaining <= ahead) {
      wait = Math.max(wait, resetAt - now);
    }
    const spare = wait === 0 ? Math.max(0, this.bucket.available(now) - 1) : 0;
    return Math.ceil(wait + Math.max(0, ahead - spare) * this.bucket.intervalMs);
  }

  /** Rejects every waiting request and stops the timer. */
  close(): void {
    this.closed = true;
    this.clearTimer();
    this.queues.rejectAll(() => new LimiterClosedError());
  }

  private follow(info: RateLimitInfo, now: number): void {
    // A day's window says nothing of the minute: the minute's budget and ceiling are left as they were.
    if (this.day.heard(info, now)) return;
    this.server.observe(info, now);
    const announced = this.server.announcedLimit;
    const perMinute = Math.min(this.configuredPerMinute, announced ?? Number.POSITIVE_INFINITY);
    if (perMinute !== this.perMinute) {
      this.perMinute = perMinute;
      const burst = this.burstFor(perMinute);
      this.bucket.reconfigure(this.refillPerMs(perMinute, burst), burst, now);
    }
  }

  private pump(): void {
    if (this.closed) return;
    this.clearTimer();
    for (;;) {
      if (this.queues.isEmpty()) return;
      const now = this.clock.now();
      const shared = this.sharedWaitMs(now);
      if (shared > 0) {
        this.schedule(shared);
        return;
      }
      let dayWait = Number.POSITIVE_INFINITY;
      const lane = LANES.find((each) => {
        if (this.queues.size(each) === 0) return false;
        const wait = this.dayWaitMs(each, now);
        dayWait = Math.min(dayWait, wait);
        return wait === 0;
      });
      if (lane === undefined) {
        this.schedule(dayWait);
        return;
      }
      this.grant(lane, now);
    }
  }

  private grant(lane: Lane, now: number): void {
    this.bucket.take(now);
    this.minute.record(now);
    this.day.onSend(lane, now);
    this.server.onSend(now);
    this.pace.onSend(now);
    this.queues.release(lane);
  }

  private sharedWaitMs(now: number): number {
    const ownCapacity = (windowMs: number) =>
      Math.floor(this.bucket.available(now) + windowMs / this.bucket.intervalMs);
    return Math.max(
      this.pausedUntil - now,
      this.bucket.msUntilToken(now),
      this.minute.msUntilBelow(this.perMinute, now),
      this.fleetWaitMs(now),
      this.server.msUntilAllowed(now, ownCapacity),
      0,
    );
  }

  /**
   * With the others' counts shared: until the key's last minute, every server's requests together,
   * has room, and until this server's fair part of it allows the next request.
   */
  private fleetWaitMs(now: number): number {
    const others = this.others();
    this.pace.follow(this.perMinute, others);
    if (others === null) return 0;
    const ceiling = this.perMinute - others.minute;
    const room = ceiling <= 0 ? FLEET_RECHECK_MS : this.minute.msUntilBelow(ceiling, now);
    return Math.max(room, this.pace.msUntilAllowed(now));
  }

  private dayWaitMs(lane: Lane, now: number): number {
    return this.day.waitMs(lane, now);
  }

  private burstFor(perMinute: number): number {
    return Math.max(1, Math.min(perMinute, this.burst ?? Math.floor(perMinute / 4)));
  }

  // The burst plus a minute of refill is the minute's ceiling, so pacing after a burst is steady:
  // it never runs into the rolling window and stalls there.
  private refillPerMs(perMinute: number, burst: number): number {
    return Math.max(1, perMinute - burst) / MINUTE_MS;
  }

  private schedule(ms: number): void {
    const handle = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.max(1, Math.ceil(ms)),
    );
    handle.unref?.();
    this.timer = handle;
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
