/** The roster client's public surface. */

export { type ClientStateChange, isKeyRefused } from '../../http/key-suspension';
export type { Lane } from '../../http/limiter/lane';
export type { LimiterState } from '../../http/limiter/limiter-state';
export {
  type ErrorKind,
  isOutage,
  RosterApiError,
  RosterNetworkError,
  RosterResponseError,
  RosterServiceError,
} from '../../http/roster-api-error';
export type { ServiceTime } from '../../http/service-clock';
export { SERVICE_ERROR_CODES, type ServiceErrorCode } from '../../http/service-error-codes';
export { joinHoldMs } from './member-lookups';
export {
  createRosterApi,
  type QueryValues,
  type RosterApi,
  type RosterApiOptions,
  rosterUserAgent,
} from './roster-api';
export { hasScope, scopeWarnings } from './scope-warnings';
