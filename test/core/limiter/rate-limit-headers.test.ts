import { describe, expect, it } from 'vitest';
import { readRateLimitHeaders } from '../../../src/core/limiter/rate-limit-headers';

const now = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('readRateLimitHeaders', () => {
  it('reads limit, remaining, reset (unix seconds) and Retry-After (seconds), in any case', () => {
    expect(
      readRateLimitHeaders(
        {
          'X-RateLimit-Limit': '60',
          'x-ratelimit-remaining': '3',
          'x-ratelimit-reset': String(now / 1000 + 30),
          'Retry-After': '7',
        },
        now,
      ),
    ).toEqual({ limit: 60, remaining: 3, resetAtMs: now + 30_000, retryAfterMs: 7000 });
  });

  it('accepts an HTTP-date Retry-After and ignores nonsense', () => {
    const date = new Date(now + 12_000).toUTCString();
    expect(readRateLimitHeaders({ 'retry-after': date }, now)).toEqual({ retryAfterMs: 12_000 });
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '-1' }, now)).toEqual(
      {},
    );
  });
});
