import type { Clock, Logger, TimerHandle } from '../platform/ports';
import type { Envelope } from './envelope';
import type { HttpRequest, HttpSender } from './http-sender';
import type { KeySuspension } from './key-suspension';
import type { Lane } from './limiter/lane';
import { LaneWaitTooLongError, LimiterClosedError } from './limiter/limiter-closed-error';
import { readRateLimitHeaders } from './limiter/rate-limit-headers';
import type { RateLimiter } from './limiter/rate-limiter';
import { type HttpAnswer, type ReadContext, readEnvelopeAnswer, readJsonAnswer } from './read-response';
import { backoffDelayMs, isRetryable, type RetryPolicy } from './retry-policy';
import { RosterServiceError } from './roster-api-error';
import { HeldBeforeSending } from './send-gate';
import type { ServiceClock } from './service-clock';
import { SUSPENDING_CODES } from './service-error-codes';

export interface ExecuteOptions {
  lane: Lane;
  /** The rest of a job already started (next page, assignments): front of the lane. */
  front?: boolean;
  /** The caller already holds a limiter permit for the first attempt. */
  permitHeld?: boolean;
  /** Used by the key re-check itself while the client is suspended. */
  bypassSuspension?: boolean;
}

/** The longest a write (a rank change's read or PATCH) waits for the limiter before it is refused. */
export const WRITE_WAIT_MS = 10_000;

export interface RequestExecutorOptions {
  limiter: RateLimiter;
  sender: HttpSender;
  suspension: KeySuspension;
  policy: RetryPolicy;
  clock: Clock;
  logger: Logger;
  random: () => number;
  /** The longest wait the service may impose (`rateLimit.maxWaitSeconds`). */
  maxWaitMs?: number | undefined;
  /** Told the headers of every answer: the service's `Date`. */
  serviceClock?: ServiceClock | undefined;
}

/**
 * Runs one logical request: waits for the limiter, sends, follows the rate-limit headers, waits
 * out 429s (every lane stops), retries reads after outages with backoff, and suspends the
 * client when the key is refused for good.
 */
export class RequestExecutor {
  private readonly sleeps = new Map<TimerHandle, (error: Error) => void>();
  private readonly warned = new Set<string>();

  constructor(private readonly options: RequestExecutorOptions) {}

  /**
   * Takes a limiter permit in `lane`, unless the key is suspended (then throws at once); `front`
   * for the rest of a job already started.
   */
  async acquire(lane: Lane, signal?: AbortSignal, front = false): Promise<void> {
    this.options.suspension.check();
    await this.options.limiter.acquire(lane, { ...(signal ? { signal } : {}), ...(front ? { front } : {}) });
  }

  /**
   * A permit for a caller who waits in person: a 429's pause that began after the request was
   * queued must not hold it for minutes (and send it long after it was asked for).
   */
  private async acquireWithin(lane: Lane, front: boolean, ms: number): Promise<void> {
    const controller = new AbortController();
    const timer = this.options.clock.setTimeout(() => controller.abort(new LaneWaitTooLongError(ms)), ms);
    try {
      await this.options.limiter.acquire(lane, { front, signal: controller.signal });
    } finally {
      this.options.clock.clearTimeout(timer);
    }
  }

  envelope(request: HttpRequest, options: ExecuteOptions): Promise<Envelope> {
    return this.run(request, options, readEnvelopeAnswer);
  }

  json(request: HttpRequest, options: ExecuteOptions): Promise<unknown> {
    return this.run(request, options, readJsonAnswer);
  }

  /** Logs `message` the first time `topic` comes up, and never again (a bounded set of topics). */
  warnOnce(topic: string, message: string): void {
    if (this.warned.has(topic)) return;
    this.warned.add(topic);
    this.options.logger.warn(message);
  }

  /** Stops pending backoff waits. */
  close(): void {
    for (const [handle, reject] of this.sleeps) {
      this.options.clock.clearTimeout(handle);
      reject(new LimiterClosedError());
    }
    this.sleeps.clear();
  }

  private async run<T>(
    request: HttpRequest,
    options: ExecuteOptions,
    read: (answer: HttpAnswer, context: ReadContext) => T,
  ): Promise<T> {
    const { limiter, sender, suspension, policy, clock, logger } = this.options;
    const label = `${request.method} ${request.path}`;
    let permitHeld = options.permitHeld ?? false;
    let retries = 0;
    let rateLimited = 0;
    let heldBack = false;
    // The write lane carries rank changes, for which a supervisor waits in chat: a read that fails
    // or is rate limited is answered at once (they try again), not retried behind a 429's pause
    // and a change then made minutes after it was asked for.
    const retried = options.lane !== 'write';
    // Nothing leaves during a 429 pause or, but for the key re-check, while the key is refused: an
    // answer that stops every request may come while this one still waits for its socket.
    const held = () => limiter.isPaused() || (!options.bypassSuspension && suspension.current !== undefined);
    for (;;) {
      if (!options.bypassSuspension) suspension.check();
      if (!permitHeld) {
        const front = options.front === true || retries + rateLimited > 0 || heldBack;
        if (retried) await limiter.acquire(options.lane, { front });
        else await this.acquireWithin(options.lane, front, WRITE_WAIT_MS);
        if (!options.bypassSuspension) suspension.check();
      }
      permitHeld = false;
      try {
        const answer = await sender.send(request, held);
        this.options.serviceClock?.observe(answer.headers);
        const info = readRateLimitHeaders(answer.headers, clock.now(), this.options.maxWaitMs);
        if (answer.status === 429) {
          const waitMs = limiter.pauseAfterRateLimited(info);
          logger.warn(
            `The roster service rate limited ${label} (429); every request waits ${Math.ceil(waitMs / 1000)} s.`,
          );
          if (request.method === 'GET' && retried && rateLimited < policy.maxRateLimitRetries) {
            rateLimited += 1;
            continue;
          }
        } else limiter.observe(info);
        return read(answer, { request: label, retryAfterMs: info.retryAfterMs, redact: sender.redact });
      } catch (error) {
        // Stopped after this request's turn came but before it left: it reached nobody. It waits
        // for the limiter again at the front of its lane, or fails as every request while the key
        // is refused.
        if (error instanceof HeldBeforeSending) {
          heldBack = true;
          continue;
        }
        if (error instanceof RosterServiceError && SUSPENDING_CODES.has(error.code))
          suspension.suspend(error);
        if (!retried || !isRetryable(error, request.method) || retries >= policy.maxRetries) throw error;
        const delay = backoffDelayMs(policy, retries, this.options.random);
        retries += 1;
        logger.debug(`${(error as Error).message} Retry ${retries} of ${policy.maxRetries} in ${delay} ms.`);
        await this.sleep(delay);
      }
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
