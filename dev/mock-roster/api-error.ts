import { MockApiError } from '../mock-http/api-error';

/** Error codes of the API document and the HTTP status the mock gives each (the document leaves most open). */
export const ERROR_STATUS = {
  invalid_api_key: 401,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  // 402 Payment Required: the plan is a billing matter, and it tells it apart from the other 403s.
  plan_required: 402,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  validation_error: 422,
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** `error.details` of a validation_error: the failing field and why. */
export interface ErrorDetails {
  field: string;
  reason: string;
}

/** Thrown by handlers and the API; turned into the failure envelope in one place. */
export class ApiError extends MockApiError<ErrorCode> {
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(code, ERROR_STATUS[code], message, details);
  }
}

export function validationError(field: string, reason: string): ApiError {
  return new ApiError('validation_error', `${field}: ${reason}`, { field, reason });
}
