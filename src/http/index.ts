/**
 * The transport's public surface: what the roster client, the learning client and the features
 * use. Files inside this folder import one another directly, never through here.
 */

// One HTTP exchange, and the dispatcher and gate it goes through.
export { DEFAULT_MAX_BODY_BYTES, ExchangeFailure, exchange, type RawAnswer } from './http-exchange';
export { createHttpSender, type HttpSender, megabytes } from './http-sender';
export { keepAlivePool } from './keep-alive-pool';
export { HeldBeforeSending } from './send-gate';

// The request loop both services' clients run, and the roster side of it.
export { RequestLoop, type RequestLoopOptions } from './request-loop';
export { RequestExecutor } from './request-executor';
export { defaultRetryPolicy, type RetryPolicy } from './retry-policy';
export { type ClientStateChange, isKeyRefused, KeySuspension } from './key-suspension';
export { ServiceClock, type ServiceTime } from './service-clock';

// The roster service's answers and errors.
export { envelopeSchema, hasMorePages } from './envelope';
export {
  type ErrorKind,
  isOutage,
  RosterApiError,
  RosterNetworkError,
  RosterResponseError,
  RosterServiceError,
} from './roster-api-error';
export { SERVICE_ERROR_CODES, type ServiceErrorCode } from './service-error-codes';

// The rate limiter, its lanes and the key's day.
export { dailyCost, type KeyOutlook, keyOutlook, type ServerRates } from './limiter/daily-estimate';
export { DEFAULT_DAY_RESERVE, type KeyDay } from './limiter/key-day';
export { LANES, type Lane, perLane } from './limiter/lane';
export { LaneWaitTooLongError, LimiterClosedError } from './limiter/limiter-closed-error';
export type { LimiterState } from './limiter/limiter-state';
export type { HeaderBag } from './limiter/rate-limit-headers';
export { RateLimiter } from './limiter/rate-limiter';
export { type DayStore, decodeDay, encodeDay, keyTag } from './limiter/saved-day';
