/** The roster client's public surface. */

export type { Lane, LimiterState, ServiceTime } from '../../http';
export {
  type ClientStateChange,
  type ErrorKind,
  isKeyRefused,
  isOutage,
  RosterApiError,
  RosterNetworkError,
  RosterResponseError,
  RosterServiceError,
  SERVICE_ERROR_CODES,
  type ServiceErrorCode,
} from '../../http';
export { joinHoldMs } from './member-lookups';
export { departmentSchema, rankSchema } from './record-schemas';
export {
  createRosterApi,
  type QueryValues,
  type RosterApi,
  type RosterApiOptions,
  rosterUserAgent,
} from './roster-api';
export { assignmentRoute, ROSTER_ROUTES } from './routes';
export { hasScope, scopeWarnings } from './scope-warnings';
