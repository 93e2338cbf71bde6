import { describe, expect, it } from 'vitest';
import { backoffDelayMs, defaultRetryPolicy, isRetryable } from '../../src/http/retry-policy';
import { RosterNetworkError, RosterServiceError } from '../../src/http/roster-api-error';
import { FakeClock, fail, fakeRoster, license, ok, outcome, testClient } from '../roster/client/fake-roster';

describe('retries', () => {
  it('retries outages of reads a bounded number of times with growing, jittered backoff', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, () => fail(500, 'internal', 'boom'));
    const { api } = testClient(clock, agent, { random: () => 0 });
    const { error } = await outcome(clock, api.get('/api/v1/members'), 50);
    expect((error as RosterServiceError).code).toBe('internal');
    expect(requests.length).toBe(1 + defaultRetryPolicy.maxRetries);
    const gaps = requests.slice(1).map((request, index) => request.at - requests[index]!.at);
    // random() = 0 gives the lower half of each window: 250, 500, 1000 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(250);
    expect(gaps[1]).toBeGreaterThanOrEqual(500);
    expect(gaps[2]).toBeGreaterThanOrEqual(1000);
    await api.close();
  });

  it('recovers when a retry succeeds', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const { agent } = fakeRoster(clock, () =>
      ++calls < 3 ? { status: 503, text: 'busy' } : ok({ fine: true }),
    );
    const { api } = testClient(clock, agent);
    expect((await outcome(clock, api.get('/api/v1/thing'))).value).toEqual({ fine: true });
    await api.close();
  });

  it('never retries a write', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, () => fail(500, 'internal'));
    const { api } = testClient(clock, agent);
    const { error } = await outcome(clock, api.patch('/api/v1/department-assignments/a1', { rankId: 'r2' }));
    expect((error as RosterServiceError).code).toBe('internal');
    expect(requests.length).toBe(1);
    expect(requests[0]!.method).toBe('PATCH');
    expect(requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(requests[0]!.body ?? '')).toEqual({ rankId: 'r2' });
    await api.close();
  });

  it('a read under way when the client closes fails with what it met, and is not retried', async () => {
    const clock = new FakeClock();
    let refuse: (error: Error) => void = () => {};
    const unanswered = {
      request: () =>
        new Promise((_, reject) => {
          refuse = reject;
        }),
      close: async () => {},
    };
    const { api } = testClient(clock, unanswered as never);
    const read = api.get('/api/v1/members');
    read.catch(() => undefined);
    await clock.advance(1);
    await api.close();
    refuse(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect((await outcome(clock, read, 100)).error).toBeInstanceOf(RosterNetworkError);
  });

  it('does not retry answers that are definitive', () => {
    const error = (code: string, status: number) =>
      new RosterServiceError('x', {
        code,
        kind: 'rejected',
        status,
        requestId: null,
        serviceMessage: '',
        details: null,
      });
    expect(isRetryable(error('not_found', 404), 'GET')).toBe(false);
    expect(isRetryable(error('internal', 500), 'GET')).toBe(true);
    expect(isRetryable(error('internal', 500), 'PATCH')).toBe(false);
    const delays = [0, 1, 2, 3, 10].map((retry) => backoffDelayMs(defaultRetryPolicy, retry, () => 1));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000]);
  });
});

describe('429', () => {
  it('stops every lane until Retry-After has passed, and is not counted against the retry budget', async () => {
    const clock = new FakeClock();
    let limited = 5;
    const { agent, requests } = fakeRoster(clock, (request) => {
      if (request.path === '/api/v1/ranks' && limited-- > 0)
        return fail(429, 'rate_limited', 'slow down', { 'retry-after': '20' });
      if (request.path === '/api/v1/members') return ok([]);
      return ok([]);
    });
    const { api, lines } = testClient(clock, agent);
    const start = clock.now();
    const background = outcome(clock, api.get('/api/v1/ranks'), 100, 600_000);
    await clock.advance(1);
    expect(api.limiterState().pausedUntil).toBe(start + 20_000);
    const join = api.lookup(license(1), 'join');
    const refresh = api.get('/api/v1/departments', {}, 'refresh');
    await clock.advance(19_000);
    expect(requests.map((request) => request.path)).toEqual(['/api/v1/ranks']);
    await clock.advance(1_500);
    const after = requests.slice(1);
    expect(after.map((request) => request.path)).toEqual(
      expect.arrayContaining(['/api/v1/members', '/api/v1/departments', '/api/v1/ranks']),
    );
    expect(after.every((request) => request.at >= start + 20_000)).toBe(true);
    await expect(join).resolves.toBeNull();
    await expect(refresh).resolves.toEqual([]);
    expect((await background).value).toEqual([]); // five 429s and still more than maxRetries (3)
    expect(requests.filter((request) => request.path === '/api/v1/ranks').length).toBe(6);
    expect(lines.some((line) => line.level === 'warn' && /429/.test(line.message))).toBe(true);
    await api.close();
  });

  it('a 429 is never mistaken for "not a member"', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => fail(429, 'rate_limited', '', { 'retry-after': '1' }));
    const { api } = testClient(clock, agent, { retry: { maxRateLimitRetries: 2 } });
    const { value, error } = await outcome(clock, api.lookup(license(7)));
    expect(value).toBeUndefined();
    expect((error as RosterServiceError).code).toBe('rate_limited');
    expect((error as RosterServiceError).kind).toBe('outage');
    await api.close();
  });

  it('a write queued before a 429 pause is refused after 10 s, not sent when the pause ends', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, (request) =>
      request.path === '/api/v1/ranks' ? fail(429, 'rate_limited', '', { 'retry-after': '120' }) : ok([]),
    );
    const { api } = testClient(clock, agent, { retry: { maxRateLimitRetries: 0 } });
    const background = outcome(clock, api.get('/api/v1/ranks'), 100, 600_000);
    await clock.advance(1);
    expect(api.limiterState().pausedUntil).not.toBeNull();
    const write = outcome(
      clock,
      api.get('/api/v1/department-assignments', { memberId: 'm1' }, 'write'),
      100,
      600_000,
    );
    const { error } = await write;
    expect((error as Error).name).toBe('LaneWaitTooLongError');
    await clock.advance(130_000);
    await background;
    expect(requests.map((request) => request.path)).not.toContain('/api/v1/department-assignments');
    await api.close();
  });
});
