import type { Dispatcher } from 'undici';
import {
  createHttpSender,
  KeySuspension,
  type Lane,
  type LimiterState,
  RateLimiter,
  RequestLoop,
} from '../../../http';
import type { Clock, Logger } from '../../../platform/ports';
import { type LearningAnswer, learningFailure, readAnswer, type WireRequest } from './learning-answer';
import { isTrainingOutage, isUnreadable, TrainingApiError } from './training-api-error';

export type { LearningAnswer } from './learning-answer';

/** The first re-check of a refused training key; each failed one doubles the wait, up to 30 minutes. */
export const KEY_RECHECK_MS = 15_000;

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
 * The key lives only in the sender's closure and is cut out of every message built from an answer.
 */
export function createLearningHttp(options: LearningHttpOptions): LearningHttp {
  const { clock, logger } = options;
  // More sockets than the burst (the sender's pool): requests the limiter lets go together rarely
  // wait for a socket (one that does is held back if a 429 comes meanwhile: see send-gate.ts).
  const sender = createHttpSender({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    clock,
    maxBodyBytes: options.maxBodyBytes,
    dispatcher: options.dispatcher,
    failure: learningFailure,
  });
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
  const loop = new RequestLoop<TrainingApiError>({
    limiter,
    suspension,
    policy,
    clock,
    logger,
    random,
    maxWaitMs: options.maxWaitMs,
    rateLimitedWarning: (request, seconds) =>
      `The learning service rate limited ${request} (429); every training request waits ${seconds} s.`,
    // Until the key can be re-checked, a refusal is one request's failure, not every request's.
    refusesKey: (error): error is TrainingApiError =>
      error instanceof TrainingApiError && error.status === 401 && keyCheck !== undefined,
    // An answer that came but cannot be read would only come again.
    retryable: (error) => isTrainingOutage(error) && !isUnreadable(error),
  });
  const warned = new Set<string>();

  function send(request: LearningRequest): Promise<LearningAnswer> {
    const repeatable = request.idempotent ?? request.method === 'GET';
    return loop.run({
      method: request.method,
      path: request.path,
      lane: request.lane,
      bypassSuspension: request.bypassSuspension,
      repeatable,
      retries: request.retries,
      send: (held) =>
        sender.send(
          {
            method: request.method,
            path: request.path,
            query: new URLSearchParams(request.query ?? {}),
            body: request.body,
            resendable: repeatable,
          },
          held,
        ),
      read: (raw) => readAnswer(request, raw, sender.redact),
    });
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
      loop.close();
      suspension.close();
      limiter.close();
      await sender.close();
    },
  };
}
