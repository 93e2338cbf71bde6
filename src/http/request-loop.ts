import { errorMessage } from '../platform/error-message';
import type { Clock, Logger, TimerHandle } from '../platform/ports';
import type { KeySuspension } from './key-suspension';
import type { Lane } from './limiter/lane';
import { LaneWaitTooLongError, LimiterClosedError } from './limiter/limiter-closed-error';
import { type RateLimitInfo, readRateLimitHeaders } from './limiter/rate-limit-headers';
import type { RateLimiter } from './limiter/rate-limiter';
import type { HttpAnswer } from './read-response';
import { backoffDelayMs, type RetryPolicy } from './retry-policy';
import { HeldBeforeSending } from './send-gate';
import type { ServiceClock } from './service-clock';

/**
 * What a service's client gives the loop: its limiter and key suspension, its retry policy, and its
 * own reading of errors (which refuse the key, which are worth another try) and of a 429.
 */
export interface RequestLoopOptions<E extends Error> {
  limiter: RateLimiter;
  suspension: KeySuspension<E>;
  policy: RetryPolicy;
  clock: Clock;
  logger: Logger;
  /** Jitter source of the backoff. */
  random: () => number;
  /** The longest wait `Retry-After` or `X-RateLimit-Reset` may impose. */
  maxWaitMs?: number | undefined;
  /** Told the headers of every answer: the service's `Date`. */
  serviceClock?: ServiceClock | undefined;
  /** The warning logged when a 429 to `request` stops every request for `seconds`. */
  rateLimitedWarning(request: string, seconds: number): string;
  /** True for an error that refuses the key itself: nothing is sent until a re-check finds it working. */
  refusesKey(error: unknown): error is E;
  /** True for a failure another try may mend (no answer, a failing service). */
  retryable(error: unknown, method: string): boolean;
}

/** One logical request: how to send one attempt and read its answer, and what it may wait for. */
export interface LoopRequest<T> {
  method: string;
  /** Without the query: for messages. */
  path: string;
  lane: Lane;
  /** The rest of a job already started: front of the lane. */
  front?: boolean | undefined;
  /** The caller already holds a limiter permit for the first attempt. */
  permitHeld?: boolean | undefined;
  /** The key re-check itself, sent while the key is suspended. */
  bypassSuspension?: boolean | undefined;
  /**
   * Safe to send again (a read, or a write the service says may be repeated): only such a request
   * waits out a 429 and is retried after an outage.
   */
  repeatable: boolean;
  /** Retries after outages, when not the policy's. */
  retries?: number | undefined;
  /**
   * For a caller who waits in person: the longest wait for a permit, after which the request is
   * refused with `LaneWaitTooLongError` (a 429's pause that began after it was queued must not hold
   * it for minutes, and send it long after it was asked for).
   */
  permitWithinMs?: number | undefined;
  /** One attempt; `held` says when it may not leave after all (see send-gate.ts). */
  send(held: () => boolean): Promise<HttpAnswer>;
  /** The answer as the caller wants it, or the client's typed error. */
  read(answer: HttpAnswer, info: RateLimitInfo): T;
}

/**
 * The request loop both services' clients share: waits for a limiter permit, sends, follows the
 * rate-limit headers, waits out 429s (every lane stops), retries repeatable requests after outages
 * with backoff, and suspends every request when the key is refused. Once closed it retries nothing
 * and suspends nothing: what is under way ends with the error it met.
 */
export class RequestLoop<E extends Error> {
  private readonly sleeps = new Map<TimerHandle, (error: Error) => void>();
  private closed = false;

  constructor(private readonly options: RequestLoopOptions<E>) {}

  async run<T>(request: LoopRequest<T>): Promise<T> {
    const { limiter, suspension, policy, clock, logger } = this.options;
    const label = `${request.method} ${request.path}`;
    const bypass = request.bypassSuspension === true;
    const maxRetries = request.repeatable ? (request.retries ?? policy.maxRetries) : 0;
    const maxRateLimited = request.repeatable ? policy.maxRateLimitRetries : 0;
    let permitHeld = request.permitHeld === true;
    let retries = 0;
    let rateLimited = 0;
    let heldBack = false;
    // Nothing leaves during a 429 pause or, but for the key re-check, while the key is refused: an
    // answer that stops every request may come while this one still waits for its socket.
    const held = () => limiter.isPaused() || (!bypass && suspension.current !== undefined);
    for (;;) {
      if (!bypass) suspension.check();
      if (!permitHeld) {
        const front = request.front === true || retries + rateLimited > 0 || heldBack;
        if (request.permitWithinMs === undefined) await limiter.acquire(request.lane, { front });
        else await this.acquireWithin(request.lane, front, request.permitWithinMs);
        if (!bypass) suspension.check();
      }
      permitHeld = false;
      try {
        const answer = await request.send(held);
        this.options.serviceClock?.observe(answer.headers);
        const info = readRateLimitHeaders(answer.headers, clock.now(), this.options.maxWaitMs);
        if (answer.status === 429) {
          const waitMs = limiter.pauseAfterRateLimited(info);
          logger.warn(this.options.rateLimitedWarning(label, Math.ceil(waitMs / 1000)));
          if (!this.closed && rateLimited < maxRateLimited) {
            rateLimited += 1;
            continue;
          }
        } else limiter.observe(info);
        return request.read(answer, info);
      } catch (error) {
        // Stopped after this request's turn came but before it left: it reached nobody (a write
        // included). It waits for the limiter again at the front of its lane, or fails as every
        // request while the key is refused.
        if (error instanceof HeldBeforeSending) {
          heldBack = true;
          continue;
        }
        if (!this.closed && this.options.refusesKey(error)) suspension.suspend(error);
        if (this.closed || retries >= maxRetries || !this.options.retryable(error, request.method))
          throw error;
        const delay = backoffDelayMs(policy, retries, this.options.random);
        retries += 1;
        logger.debug(`${errorMessage(error)} Retry ${retries} of ${maxRetries} in ${delay} ms.`);
        await this.sleep(delay);
      }
    }
  }

  /** Ends the backoff waits under way (with `LimiterClosedError`); nothing is retried after. */
  close(): void {
    this.closed = true;
    for (const [handle, reject] of this.sleeps) {
      this.options.clock.clearTimeout(handle);
      reject(new LimiterClosedError());
    }
    this.sleeps.clear();
  }

  private async acquireWithin(lane: Lane, front: boolean, ms: number): Promise<void> {
    const controller = new AbortController();
    const timer = this.options.clock.setTimeout(() => controller.abort(new LaneWaitTooLongError(ms)), ms);
    try {
      await this.options.limiter.acquire(lane, { front, signal: controller.signal });
    } finally {
      this.options.clock.clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const handle = this.options.clock.setTimeout(() => {
        this.sleeps.delete(handle);
        resolve();
      }, ms);
      this.sleeps.set(handle, reject);
    });
  }
}
