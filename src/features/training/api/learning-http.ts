import type { Dispatcher } from 'undici';
import { DEFAULT_MAX_BODY_BYTES } from '../../../http/http-exchange';
import { keepAlivePool } from '../../../http/keep-alive-pool';
import { KeySuspension } from '../../../http/key-suspension';
import type { Lane } from '../../../http/limiter/lane';
import type { LimiterState } from '../../../http/limiter/limiter-state';
import { readRateLimitHeaders } from '../../../http/limiter/rate-limit-headers';
import { RateLimiter } from '../../../http/limiter/rate-limiter';
import { backoffDelayMs } from '../../../http/retry-policy';
import { HeldBeforeSending } from '../../../http/send-gate';
import type { Clock, Logger } from '../../../platform/ports';
import { BackoffSleeps } from './backoff-sleeps';
import {
  type ExchangeSetup,
  type LearningAnswer,
  readAnswer,
  sendOnce,
  type WireRequest,
} from './learning-exchange';
import { isTrainingOutage, isUnreadable, TrainingApiError } from './training-api-error';

export type { LearningAnswer } from './learning-exchange';

/** The first re-check of a refused training key; each failed one doubles the wait, up to 30 minutes. */
export const KEY_RECHECK_MS = 15_000;

/** Every partner path starts here. */
export const PUBLIC_API = '/api/public/v1';

export interface LearningRequest extends WireRequest {
  lane: Lane;
  /** Safe to send again after an outage (reads; POST /enrollments is documented as safe to retry). */
  idempotent?: boolean;
  /** Retries after outages; default 2 (joins pass fewer to stay inside the gate's deadline). */
  retries?: number;
  /** The key re-check itself, sent while the key is suspended. */
  bypassSuspension?: boolean;
}

export interface LearningHttpOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  perMinute: number;
  clock: Clock;
  logger: Logger;
  dispatcher?: Dispatcher | undefined;
  /** An answer larger than this is not read (`training.maxBodyMB`; default 4 MB). */
  maxBodyBytes?: number | undefined;
  /** The longest wait `Retry-After` or `X-RateLimit-Reset` may impose (default 5 minutes). */
  maxWaitMs?: number | undefined;
  random?: () => number;
  /** First backoff after an outage, doubled each retry. */
  retryBaseMs?: number;
  /** First re-check of a refused key (default 15 s), doubled after each failure up to 30 minutes. */
  recheckAfterMs?: number;
}

export interface LearningHttp {
  send(request: LearningRequest): Promise<LearningAnswer>;
  limiterState(): LimiterState;
  /**
   * How to check the key while it is suspended (the identity request, sent with
   * `bypassSuspension`); until set, a refused key is re-checked with the next request.
   */
  useKeyCheck(check: () => Promise<unknown>): void;
  /** The refusal every request meets while the key is suspended, if it is. */
  suspended(): TrainingApiError | undefined;
  /** Logs `message` the first time `topic` comes up, and never again. */
  warnOnce(topic: string, message: string): void;
  close(): Promise<void>;
}

/**
 * The learning partner API over HTTP: a bearer key, one shared rate limiter, `Retry-After` and
 * `X-RateLimit-*` honoured, a time limit per request, and retries of safe requests after outages.
 * The key lives only in this closure and is cut out of every message built from an answer.
 */
export function createLearningHttp(options: LearningHttpOptions): LearningHttp {
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const { apiKey, clock, logger, timeoutMs } = options;
  const ownsDispatcher = options.dispatcher === undefined;
  // More sockets than the burst: requests the limiter lets go together rarely wait for a socket
  // (one that does is held back if a 429 comes meanwhile: see `held` below).
  const dispatcher = options.dispatcher ?? keepAlivePool(origin, 8);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A small burst: the learning partner's limits and 429s are tested with requests spread out.
  const burst = Math.max(1, Math.min(5, Math.floor(options.perMinute / 12)));
  const limiter = new RateLimiter({ perMinute: options.perMinute, perDay: null, clock, burst });
  const random = options.random ?? Math.random;
  const policy = {
    maxRetries: 2,
    baseDelayMs: options.retryBaseMs ?? 500,
    maxDelayMs: 8000,
    maxRateLimitRetries: 5,
  };
  const redact = (text: string) => (apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);
  const sleeps = new BackoffSleeps(clock);
  let closed = false;
  let keyCheck: (() => Promise<unknown>) | undefined;
  // A refused key (401: revoked, wrong) stops every request, as on the roster side: nothing is
  // sent until a re-check on a backing-off schedule finds the key working again.
  const suspension = new KeySuspension<TrainingApiError>({
    clock,
    logger,
    service: 'training',
    recheck: () => (keyCheck ? keyCheck() : Promise.reject(new Error('no key check'))),
    recheckEveryMs: options.recheckAfterMs ?? KEY_RECHECK_MS,
    maxRecheckMs: 30 * 60_000,
  });
  const warned = new Set<string>();

  const setup: ExchangeSetup = {
    dispatcher,
    origin,
    basePath,
    apiKey,
    userAgent: options.userAgent,
    clock,
    timeoutMs,
    maxBodyBytes,
    redact,
  };

  async function send(request: LearningRequest): Promise<LearningAnswer> {
    const safe = request.idempotent ?? request.method === 'GET';
    const maxRetries = safe ? (request.retries ?? policy.maxRetries) : 0;
    let retries = 0;
    let rateLimited = 0;
    let heldBack = false;
    for (;;) {
      if (!request.bypassSuspension) suspension.check();
      await limiter.acquire(request.lane, { front: retries + rateLimited > 0 || heldBack });
      if (!request.bypassSuspension) suspension.check();
      try {
        const raw = await sendOnce(setup, {
          ...request,
          resendable: safe,
          // A request the limiter let go may still wait for a socket when an answer stops every
          // request (a 429, a refused key): it is held back right before it would be written.
          held: () => limiter.isPaused() || (!request.bypassSuspension && suspension.current !== undefined),
        });
        const info = readRateLimitHeaders(raw.headers, clock.now(), options.maxWaitMs);
        if (raw.status === 429) {
          const waitMs = limiter.pauseAfterRateLimited(info);
          logger.warn(
            `The learning service rate limited ${request.method} ${request.path} (429); every training request waits ${Math.ceil(waitMs / 1000)} s.`,
          );
          if (safe && rateLimited < policy.maxRateLimitRetries && !closed) {
            rateLimited += 1;
            continue;
          }
        } else limiter.observe(info);
        return readAnswer(request, raw, redact);
      } catch (error) {
        // Stopped after this request's turn came but before it left: it reached nobody (a write
        // included). It waits for the limiter again at the front of its lane, or fails as every
        // request while the key is refused.
        if (error instanceof HeldBeforeSending) {
          heldBack = true;
          continue;
        }
        if (error instanceof TrainingApiError && error.status === 401 && keyCheck && !closed)
          suspension.suspend(error);
        if (closed || !isTrainingOutage(error) || isUnreadable(error) || retries >= maxRetries) throw error;
        const delay = backoffDelayMs(policy, retries, random);
        retries += 1;
        logger.debug(`${(error as Error).message} Retry ${retries} of ${maxRetries} in ${delay} ms.`);
        await sleeps.sleep(delay);
      }
    }
  }

  return {
    send,
    limiterState: () => limiter.state(),
    useKeyCheck(check) {
      keyCheck = check;
    },
    suspended: () => suspension.current,
    warnOnce(topic, message) {
      if (warned.has(topic)) return;
      warned.add(topic);
      logger.warn(message);
    },
    async close() {
      closed = true;
      suspension.close();
      limiter.close();
      sleeps.wakeAll();
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
