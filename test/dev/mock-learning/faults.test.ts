import { fetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import { API, call, fakeClock } from './http';

let mock: MockLearning;
const clock = fakeClock(Date.UTC(2025, 5, 1, 12, 0, 0));
beforeAll(async () => {
  mock = await startMockLearning({ now: clock.now });
});
afterEach(() => {
  mock.faults.clear();
  mock.faults.perMinute(null);
});
afterAll(() => mock.close());

describe('mock learning faults', () => {
  it('delays responses by the configured latency', async () => {
    mock.faults.latency(120);
    const started = performance.now();
    expect((await call(mock, '/courses')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('answers a 5xx burst: 503 as a proxy HTML page, 500 as the internal envelope, then recovers', async () => {
    mock.faults.failNext(2, 503);
    for (let i = 0; i < 2; i++) {
      const reply = await call(mock, '/courses');
      expect(reply.status).toBe(503);
      expect(reply.headers.get('content-type')).toContain('text/html');
    }
    expect((await call(mock, '/courses')).status).toBe(200);
    mock.faults.failNext(1, 500);
    const internal = await call(mock, '/courses');
    expect(internal.status).toBe(500);
    expect(internal.json.error.code).toBe('internal');
    expect(internal.json.error.message).toContain(internal.headers.get('x-request-id'));
  });

  it('cuts JSON bodies in half, keeping status and headers', async () => {
    mock.faults.malformedJson(1);
    const reply = await call(mock, '/courses');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.json).toBeNull();
    expect((await call(mock, '/courses')).json).not.toBeNull();
  });

  it('drops the connection without a response', async () => {
    mock.faults.dropConnection(1);
    await expect(call(mock, '/courses')).rejects.toThrow();
    expect(mock.counters.dropped).toBeGreaterThanOrEqual(1);
    expect((await call(mock, '/courses')).status).toBe(200);
  });

  it('hangs requests until released', async () => {
    mock.faults.hang();
    const pending = call(mock, '/courses');
    await expect.poll(() => mock.faults.hungCount).toBe(1);
    mock.faults.hang(false);
    expect((await pending).status).toBe(200);
  });

  it('fails one path, or holds it until clear(), while other paths answer', async () => {
    mock.faults.failPath(`${API}/courses`);
    const failed = await call(mock, '/courses');
    expect(failed.status).toBe(500);
    expect(failed.json.error.code).toBe('internal');
    expect((await call(mock, '/discord/links/210000000000000001')).status).toBe(200);

    mock.faults.clear().failPath(`${API}/courses`, 'hang');
    mock.counters.reset();
    const held = call(mock, '/courses');
    await expect.poll(() => mock.counters.log.length).toBe(1);
    expect((await call(mock, '/discord/links/210000000000000001')).status).toBe(200);
    expect(mock.counters.log.map((e) => e.status)).toEqual([null, 200]);
    mock.faults.clear();
    expect((await held).status).toBe(200);
  });

  it('forces 429 with and without Retry-After', async () => {
    mock.faults.rateLimit(1, { retryAfter: 7 });
    const limited = await call(mock, '/courses');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.json.error.code).toBe('rate_limited');
    mock.faults.rateLimit(1, { retryAfter: null });
    const bare = await call(mock, '/courses');
    expect(bare.status).toBe(429);
    expect(bare.headers.get('retry-after')).toBeNull();
    expect((await call(mock, '/courses')).status).toBe(200);
  });

  it('has no rate limit by default; a per-minute limit answers 429 with Retry-After to the minute end', async () => {
    for (let i = 0; i < 30; i++) expect((await call(mock, '/courses')).status).toBe(200);
    mock.faults.perMinute(3);
    clock.advance(60_000 - (clock.now() % 60_000) + 15_000); // hh:mm:15 of a fresh minute
    for (let i = 0; i < 3; i++) expect((await call(mock, '/courses')).status).toBe(200);
    const limited = await call(mock, '/courses');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    // Another key has its own budget.
    expect((await call(mock, '/courses', { key: mock.keys.read })).status).toBe(200);
    clock.advance(45_000);
    expect((await call(mock, '/courses')).status).toBe(200);
  });

  it('close() ends hung connections', async () => {
    const other = await startMockLearning();
    other.faults.hang();
    const pending = fetch(`${other.url}${API}/courses`, {
      headers: { Authorization: `Bearer ${other.keys.read}` },
    });
    await expect.poll(() => other.faults.hungCount).toBe(1);
    await other.close();
    await expect(pending).rejects.toThrow();
  });
});

describe('mock learning counters', () => {
  it('counts requests per endpoint and per key, and logs each request', async () => {
    mock.counters.reset();
    await call(mock, '/discord/links/210000000000000001');
    await call(mock, '/discord/links/210000000000000002');
    await call(mock, '/courses', { key: mock.keys.none });
    await call(mock, '/nowhere');
    expect(mock.counters.byEndpoint()).toEqual({
      'GET /api/public/v1/discord/links/:discord_id': 2,
      'GET /api/public/v1/courses': 1,
      unmatched: 1,
    });
    expect(mock.counters.byKey()[mock.keyPrefix('enroll')]).toBe(3);
    expect(mock.counters.byKey()[mock.keyPrefix('none')]).toBe(1);
    expect(mock.counters.total).toBe(4);
    expect(mock.counters.errors).toBe(2);
    expect(mock.counters.log.map((e) => e.status)).toEqual([200, 200, 403, 404]);
    expect(mock.counters.log[0]).toMatchObject({
      time: clock.now(),
      method: 'GET',
      path: '/api/public/v1/discord/links/210000000000000001',
      keyId: mock.keyPrefix('enroll'),
    });
  });
});
