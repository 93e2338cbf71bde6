/** The roster client's public surface. */
export type { Lane } from '../limiter/lane';
export type { LimiterState } from '../limiter/limiter-state';
export { joinHoldMs } from '../lookup/member-lookups';
export { type ClientStateChange, isKeyRefused } from './key-suspension';
export {
  createRosterApi,
  type QueryValues,
  type RosterApi,
  type RosterApiOptions,
  rosterUserAgent,
} from './roster-api';
export {
  type ErrorKind,
  isOutage,
  RosterApiError,
  RosterNetworkError,
  RosterResponseError,
  RosterServiceError,
} from './roster-api-error';
export { hasScope, scopeWarnings } from './scope-warnings';
export type { ServiceTime } from './service-clock';
export { SERVICE_ERROR_CODES, type ServiceErrorCode } from './service-error-codes';
