import type { ErrorKind } from './roster-api-error';

/** The ten error codes of the roster API document. */
export const SERVICE_ERROR_CODES = [
  'invalid_api_key',
  'insufficient_scope',
  'ip_not_allowed',
  'plan_required',
  'not_found',
  'method_not_allowed',
  'conflict',
  'validation_error',
  'rate_limited',
  'internal',
] as const;

export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/** Codes after which the key cannot be used at all: the client stops sending until whoami works. */
export const SUSPENDING_CODES: ReadonlySet<string> = new Set([
  'invalid_api_key',
  'plan_required',
  'ip_not_allowed',
]);

const KINDS: Record<ServiceErrorCode, ErrorKind> = {
  invalid_api_key: 'refused',
  insufficient_scope: 'refused',
  ip_not_allowed: 'refused',
  plan_required: 'refused',
  not_found: 'rejected',
  method_not_allowed: 'rejected',
  conflict: 'rejected',
  validation_error: 'rejected',
  rate_limited: 'outage',
  internal: 'outage',
};

export function isServiceErrorCode(code: string): code is ServiceErrorCode {
  return (SERVICE_ERROR_CODES as readonly string[]).includes(code);
}

/** How the gate should read a service error code; unknown codes are judged by HTTP status. */
export function kindOfCode(code: string, status: number | null): ErrorKind {
  if (isServiceErrorCode(code)) return KINDS[code];
  if (status === null || status >= 500 || status === 429) return 'outage';
  if (status === 401 || status === 403) return 'refused';
  return 'rejected';
}
