import { MockApiError } from '../mock-http/api-error';

/** Error codes this mock answers with (the document shows no envelope or codes) and their statuses. */
export const ERROR_STATUS = {
  unauthorized: 401,
  insufficient_scope: 403,
  feature_disabled: 403,
  not_found: 404,
  course_not_found: 404,
  user_not_found: 404,
  not_linked: 404,
  method_not_allowed: 405,
  validation_error: 422,
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Thrown by handlers and the pipeline; turned into `{ error: { code, message, details? } }` in one place. */
export class LearningApiError extends MockApiError<ErrorCode> {
  constructor(code: ErrorCode, message: string, details?: Record<string, string>) {
    super(code, ERROR_STATUS[code], message, details);
  }
}

export function validationError(field: string, reason: string): LearningApiError {
  return new LearningApiError('validation_error', `${field}: ${reason}`, { field, reason });
}
