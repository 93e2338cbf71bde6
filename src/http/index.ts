/**
 * The transport's public surface: what the roster client, the learning client and the features
 * use. Files inside this folder import one another directly, never through here.
 */

export { envelopeSchema, hasMorePages } from './envelope';
export { DEFAULT_MAX_BODY_BYTES, ExchangeFailure, exchange, type RawAnswer } from './http-exchange';
export { createHttpSender, type HttpSender, megabytes, type SendFailure } from './http-sender';
export { keepAlivePool } from './keep-alive-pool';
export { type ClientStateChange, isKeyRefused, KeySuspension } from './key-suspension';
export { dailyCost, type KeyOutlook, keyOutlook, type ServerRates } from './limiter/daily-estimate';
export type { FleetUsage, OtherServer, OthersUsage } from './limiter/fleet-usage';
export { DEFAULT_DAY_RESERVE, type KeyDay } from './limiter/key-day';
export { LANES, type Lane, perLane } from './limiter/lane';
export { LaneWaitTooLongError, LimiterClosedError } from './limiter/limiter-closed-error';
export type { LimiterState } from './limiter/limiter-state';
export type { HeaderBag } from './limiter/rate-limit-headers';
export { RateLimiter } from './limiter/rate-limiter';
export { type DayStore, decodeDay, encodeDay, keyTag } from './limiter/saved-day';
export { RequestExecutor } from './request-executor';
export { RequestLoop, type RequestLoopOptions } from './request-loop';
export { defaultRetryPolicy, type RetryPolicy } from './retry-policy';
export {
  type ErrorKind,
  isOutage,
  RosterApiError,
  RosterNetworkError,
  RosterResponseError,
  RosterServiceError,
} from './roster-api-error';
export { HeldBeforeSending } from './send-gate';
export { ServiceClock, type ServiceTime } from './service-clock';
export { SERVICE_ERROR_CODES, type ServiceErrorCode } from './service-error-codes';
