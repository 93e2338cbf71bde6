/**
 * How a caller should read a failure of the learning service:
 * - `outage`: it could not answer (network, timeout, 5xx, rate limited, not its JSON);
 * - `refused`: it answered that this key cannot do this (401, 403);
 * - `rejected`: it answered that this request is wrong (404 and other 4xx).
 */
export type TrainingErrorKind = 'outage' | 'refused' | 'rejected';

export interface TrainingApiErrorInit {
  kind: TrainingErrorKind;
  /** HTTP status when the service answered. */
  status: number | null;
  /** For 403: the scope or feature flag the answer names or the endpoint needs. */
  missing?: string | undefined;
  /** An answer came but cannot be read (too large, not JSON): asking again would not help. */
  unreadable?: boolean;
}

/** Every error the learning client raises; the message says what an owner can do about it. */
export class TrainingApiError extends Error {
  override readonly name = 'TrainingApiError';
  readonly kind: TrainingErrorKind;
  readonly status: number | null;
  readonly missing: string | undefined;
  readonly unreadable: boolean;

  constructor(message: string, init: TrainingApiErrorInit) {
    super(message);
    this.kind = init.kind;
    this.status = init.status;
    this.missing = init.missing;
    this.unreadable = init.unreadable ?? false;
  }
}

/** True when the learning service could not answer (as opposed to answering "no"). */
export function isTrainingOutage(error: unknown): boolean {
  return !(error instanceof TrainingApiError) || error.kind === 'outage';
}

/** True for the answer "no such record" (404). */
export function isNotFound(error: unknown): boolean {
  return error instanceof TrainingApiError && error.status === 404;
}

/** True for an answer that came but could not be read: an outage, never retried. */
export function isUnreadable(error: unknown): boolean {
  return error instanceof TrainingApiError && error.unreadable;
}
