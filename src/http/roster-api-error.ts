/**
 * How the gate should read an error:
 * - `outage`: the service could not answer (network, timeout, 5xx, internal, rate limited, malformed);
 * - `refused`: the service answered but this key cannot be used (key, plan, IP, scope);
 * - `rejected`: the service answered that this particular request is wrong (not found, conflict, validation).
 * "Not a member" is never an error: it is a successful empty lookup.
 */
export type ErrorKind = 'outage' | 'refused' | 'rejected';

export interface RosterApiErrorInit {
  code: string;
  kind: ErrorKind;
  status: number | null;
  requestId: string | null;
}

/** Every error the roster client raises. The message says what an owner can do about it. */
export class RosterApiError extends Error {
  override readonly name: string = 'RosterApiError';
  /** The service's `error.code`, or `network`, `timeout`, `malformed_response`, `http_error`. */
  readonly code: string;
  readonly kind: ErrorKind;
  /** HTTP status, when the service answered. */
  readonly status: number | null;
  /** The service's request id (`meta.request_id` or `X-Request-Id`), to quote to its support. */
  readonly requestId: string | null;

  constructor(message: string, init: RosterApiErrorInit) {
    super(init.requestId ? `${message} (request id ${init.requestId})` : message);
    this.code = init.code;
    this.kind = init.kind;
    this.status = init.status;
    this.requestId = init.requestId;
  }
}

/** The service answered with its error envelope (`success: false`, `error.code`). */
export class RosterServiceError extends RosterApiError {
  override readonly name = 'RosterServiceError';
  /** The service's own `error.message`. */
  readonly serviceMessage: string;
  /** `error.details` (for `validation_error`: the failing field). */
  readonly details: unknown;
  /** For `rate_limited`: how long the service asked us to wait. */
  readonly retryAfterMs: number | null;

  constructor(
    message: string,
    init: RosterApiErrorInit & { serviceMessage: string; details: unknown; retryAfterMs?: number | null },
  ) {
    super(message, init);
    this.serviceMessage = init.serviceMessage;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
}

/** The request never got an answer: the connection failed or the time limit passed. */
export class RosterNetworkError extends RosterApiError {
  override readonly name = 'RosterNetworkError';
}

/** The service (or something in front of it) answered with a body that is not the roster envelope. */
export class RosterResponseError extends RosterApiError {
  override readonly name = 'RosterResponseError';
}

/** True for errors that mean "the service could not answer" rather than a real answer. */
export function isOutage(error: unknown): boolean {
  return error instanceof RosterApiError && error.kind === 'outage';
}
