import { describe, expect, it } from 'vitest';
import { readRateLimitHeaders } from '../../../src/http/limiter/rate-limit-headers';

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
    ).toEqual({
      limit: 60,
      remaining: 3,
      resetAtMs: now + 30_000,
      resetInMs: 30_000,
      retryAfterMs: 7000,
    });
  });

  it('accepts an HTTP-date Retry-After and ignores nonsense', () => {
    const date = new Date(now + 12_000).toUTCString();
    expect(readRateLimitHeaders({ 'retry-after': date }, now)).toEqual({ retryAfterMs: 12_000 });
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '-1' }, now)).toEqual(
      {},
    );
  });
});

describe('how far the reset is, on the answer’s own clock', () => {
  it('on ours while the `Date` header agrees to its whole second, on the service’s when minutes off', () => {
    const at = now + 459;
    const reset = String(now / 1000 + 60);
    // Same clocks: the Date header says 12:00:00 for 12:00:00.459; ours places the reset to the millisecond.
    const same = readRateLimitHeaders({ date: new Date(now).toUTCString(), 'x-ratelimit-reset': reset }, at);
    expect(same.resetInMs).toBe(59_541);
    // The service 10 minutes behind: its minute window resets 60 s after its own time.
    const behind = readRateLimitHeaders(
      {
        date: new Date(now - 600_000).toUTCString(),
        'x-ratelimit-reset': String((now - 600_000) / 1000 + 60),
      },
      at,
    );
    expect(behind.resetInMs).toBe(60_000);
    expect(behind.resetAtMs).toBe(at - 540_459);
  });
});

describe('waits the service imposes are bounded', () => {
  const ceiling = 300_000;
  it.each([
    ['an epoch reset in the year 2286', { 'x-ratelimit-reset': '9999999999' }, 9_999_999_999_000 - now],
    ['a 31-year reset delta', { 'x-ratelimit-reset': '999999999' }, 999_999_999_000],
    ['a reset in epoch milliseconds far ahead', { 'x-ratelimit-reset': String(now + 1e12) }, 1e12],
  ])('%s is read as the ceiling (the reset as sent is kept apart)', (_name, headers, reported) => {
    expect(readRateLimitHeaders(headers, now, ceiling)).toEqual({
      resetAtMs: now + ceiling,
      resetInMs: reported,
    });
  });

  it('a huge Retry-After (seconds or date) is read as the ceiling', () => {
    expect(readRateLimitHeaders({ 'retry-after': '99999999' }, now, ceiling)).toEqual({
      retryAfterMs: ceiling,
    });
    const date = new Date(now + 86_400_000).toUTCString();
    expect(readRateLimitHeaders({ 'retry-after': date }, now, ceiling)).toEqual({ retryAfterMs: ceiling });
  });

  it('by default the ceiling is five minutes', () => {
    expect(readRateLimitHeaders({ 'retry-after': '99999999' }, now)).toEqual({ retryAfterMs: 300_000 });
  });
});
