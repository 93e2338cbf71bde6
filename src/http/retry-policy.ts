import { RosterApiError } from './roster-api-error';

/** When and how often a failed read is tried again. Visible so callers and tests can see the rule. */
export interface RetryPolicy {
  /** Retries after network errors, timeouts, 5xx and `internal` (not counting 429s). */
  maxRetries: number;
  /** First backoff; doubled each retry, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** 429s are waited out without spending `maxRetries`, but not forever. */
  maxRateLimitRetries: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRateLimitRetries: 10,
};

/** Only reads are retried: a write that may have happened is never sent twice. */
export function isRetryable(error: unknown, method: string): boolean {
  if (method !== 'GET' || !(error instanceof RosterApiError)) return false;
  // An answer that came but cannot be read (too large, not the API's JSON with a 2xx) would only
  // come again; a 5xx page is a failure of the service and is retried.
  if (error.code === 'malformed_response') return false;
  if (error.code === 'network' || error.code === 'timeout' || error.code === 'internal') return true;
  return error.status !== null && error.status >= 500;
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries of many servers spread. */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
