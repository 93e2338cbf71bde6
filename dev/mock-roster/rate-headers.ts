import type { RateDecision } from './rate-limiter';

/** `X-RateLimit-*` of the window `rate` describes, and `Retry-After` on a 429. */
export function rateHeaders(rate: RateDecision, retryAfter: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.reset),
  };
  if (retryAfter !== null) headers['Retry-After'] = String(retryAfter);
  return headers;
}
