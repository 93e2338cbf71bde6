/** What a response said about the key's rate limit. Every field is optional: services differ. */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: the ceiling of the current window. */
  limit?: number;
  /** `X-RateLimit-Remaining`: requests left in the current window. */
  remaining?: number;
  /** `X-RateLimit-Reset`, as epoch milliseconds, no later than the longest wait allowed. */
  resetAtMs?: number;
  /**
   * How far `X-RateLimit-Reset` is from the answer's own time (its `Date` header, else this server's
   * clock), unbounded: it tells the day's window from the minute's whatever the two clocks say.
   * Never a wait by itself.
   */
  resetInMs?: number;
  /** `Retry-After`, as milliseconds from now. */
  retryAfterMs?: number;
}

/**
 * The longest wait a service may impose through `Retry-After` or `X-RateLimit-Reset` (the config key
 * `rateLimit.maxWaitSeconds`). A hostile or broken answer (`Retry-After: 99999999`, a reset in
 * 2286) would otherwise stop every request for good; past the ceiling the request is simply tried
 * again, and a service that still refuses says so again.
 */
export const DEFAULT_MAX_WAIT_MS = 5 * 60_000;

export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * Reads `X-RateLimit-*` and `Retry-After` from response headers (names in any case), every wait
 * bounded by `maxWaitMs`.
 */
export function readRateLimitHeaders(
  headers: HeaderBag,
  now: number,
  maxWaitMs = DEFAULT_MAX_WAIT_MS,
): RateLimitInfo {
  const info: RateLimitInfo = {};
  const limit = readNumber(headers, 'x-ratelimit-limit');
  if (limit !== undefined && limit >= 1) info.limit = Math.floor(limit);
  const remaining = readNumber(headers, 'x-ratelimit-remaining');
  if (remaining !== undefined && remaining >= 0) info.remaining = Math.floor(remaining);
  const reset = readNumber(headers, 'x-ratelimit-reset');
  if (reset !== undefined && reset >= 0) {
    info.resetAtMs = Math.min(resetToEpochMs(reset, now), now + maxWaitMs);
    // A delta is the same on both clocks; a time is read against the service's own, unless the two
    // agree to the `Date` header's whole second (then ours, the finer, places the reset better).
    const date = reset < 1e9 ? undefined : answerDate(headers);
    const serviceNow = date === undefined || Math.abs(date - now) < 1000 ? now : date;
    info.resetInMs = resetToEpochMs(reset, serviceNow) - serviceNow;
  }
  const retryAfter = readRetryAfter(headers, now);
  if (retryAfter !== undefined) info.retryAfterMs = Math.min(retryAfter, maxWaitMs);
  return info;
}

/** Looks a header up by name, case-insensitively; the first value when repeated. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function readNumber(headers: HeaderBag, name: string): number | undefined {
  const text = headerValue(headers, name)?.trim();
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

// The document says unix seconds; a small value can only be a delta, and a huge one milliseconds.
function resetToEpochMs(value: number, now: number): number {
  if (value < 1e9) return now + value * 1000;
  if (value > 1e12) return value;
  return value * 1000;
}

/** The answer's `Date` header (epoch ms), when it has a readable one. */
function answerDate(headers: HeaderBag): number | undefined {
  const text = headerValue(headers, 'date')?.trim();
  if (text === undefined || text === '') return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

function readRetryAfter(headers: HeaderBag, now: number): number | undefined {
  const text = headerValue(headers, 'retry-after')?.trim();
  if (text === undefined || text === '') return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
