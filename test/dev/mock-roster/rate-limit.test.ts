import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call, fakeClock } from './http';

let mock: MockRoster;
let clock: ReturnType<typeof fakeClock>;
const MINUTE_START = Date.UTC(2025, 5, 1, 12, 0, 0);

beforeEach(async () => {
  clock = fakeClock(MINUTE_START);
  mock = await startMockRoster({
    members: 10,
    now: clock.now,
    keys: [
      { name: 'five', scopes: ['roster:read'], perMinute: 5 },
      { name: 'daily', scopes: ['roster:read'], perMinute: 100, perDay: 3 },
    ],
  });
});
afterEach(() => mock.close());

const burst = (n: number, key: string) =>
  Promise.all(Array.from({ length: n }, () => call(mock, '/api/v1/whoami', { key })));

describe('mock roster rate limits', () => {
  it('sends X-RateLimit-* on every response, Reset being the end of the current minute', async () => {
    const first = await call(mock, '/api/v1/whoami');
    expect(first.headers.get('x-ratelimit-limit')).toBe('120');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('119');
    expect(first.headers.get('x-ratelimit-reset')).toBe(String((MINUTE_START + 60_000) / 1000));
    expect(first.headers.get('retry-after')).toBeNull();
    const failed = await call(mock, '/api/v1/nowhere');
    expect(failed.headers.get('x-ratelimit-remaining')).toBe('118');
  });

  it('refuses the 121st request of a minute with 429, Retry-After and a new budget after the reset', async () => {
    const replies = await burst(120, mock.keys.full);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    clock.advance(45_000);
    const refused = await call(mock, '/api/v1/whoami');
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('15');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    clock.advance(15_000);
    const again = await call(mock, '/api/v1/whoami');
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  it('honours a lower per-key limit and reports it in X-RateLimit-Limit', async () => {
    const replies = await burst(6, mock.keys.five!);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(1);
    expect(replies[0]!.headers.get('x-ratelimit-limit')).toBe('5');
    expect(
      (await call(mock, '/api/v1/whoami', { key: mock.keys.lowLimit })).headers.get('x-ratelimit-limit'),
    ).toBe('10');
  });

  it('makes two clients on one key share one budget', async () => {
    const a = new Agent();
    const b = new Agent();
    try {
      const key = mock.keys.five!;
      const fromA = await Promise.all(
        [1, 2, 3].map(() => call(mock, '/api/v1/whoami', { key, dispatcher: a })),
      );
      const fromB = await Promise.all(
        [1, 2, 3].map(() => call(mock, '/api/v1/whoami', { key, dispatcher: b })),
      );
      expect([...fromA, ...fromB].filter((r) => r.status === 429)).toHaveLength(1);
      // Other keys keep their own budget.
      expect((await call(mock, '/api/v1/whoami', { dispatcher: b })).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('does not count refused (429) requests against the budget', async () => {
    await burst(5, mock.keys.five!);
    await burst(5, mock.keys.five!);
    clock.advance(60_000);
    const replies = await burst(5, mock.keys.five!);
    expect(replies.every((r) => r.status === 200)).toBe(true);
  });

  it('enforces the per-day limit until the UTC day ends, reporting the day window', async () => {
    await burst(3, mock.keys.daily!);
    clock.advance(5 * 60_000);
    const refused = await call(mock, '/api/v1/whoami', { key: mock.keys.daily! });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    const dayEnd = Date.UTC(2025, 5, 2);
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(dayEnd / 1000));
    expect(refused.headers.get('retry-after')).toBe(String((dayEnd - clock.now()) / 1000));
    clock.set(dayEnd);
    expect((await call(mock, '/api/v1/whoami', { key: mock.keys.daily! })).status).toBe(200);
  });

  it('counts the most requests a key sent in any rolling 60 s', async () => {
    const key = mock.keys.five!;
    await burst(3, key);
    clock.advance(50_000);
    await burst(2, key);
    clock.advance(20_000); // a new fixed window, but the rolling window still holds the last two
    await burst(4, key);
    expect(mock.counters.maxInRolling60s(mock.keyId('five'))).toBe(6);
    expect(mock.counters.maxInRolling60s(mock.keyId('five'), { excludeRateLimited: true })).toBe(6);
  });
});
