import { describe, expect, it } from 'vitest';
import { isTrainingOutage, TrainingApiError } from '../../../../src/features/training/api/training-api-error';
import { outcome } from '../../../roster/client/fake-roster';
import { error, json, KEY, testLearning } from '../fake-learning';

describe('learning client transport', () => {
  it('sends the key as a bearer token under /api/public/v1', async () => {
    const { api, requests } = testLearning(() => json({ courses: [] }));
    await api.courses();
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(requests[0]!.path).toBe('/api/public/v1/courses');
    await api.close();
  });

  it('encodes the discord id in the link path', async () => {
    const { api, requests } = testLearning(() => json({ linked: false }));
    await api.link('12/../34');
    expect(requests[0]!.path).toBe('/api/public/v1/discord/links/12%2F..%2F34');
  });

  it('a request that never answers fails at the time limit, as an outage', async () => {
    const hanging = { request: () => new Promise(() => {}), close: async () => {} };
    const { api, clock } = testLearning(() => json({}), {
      dispatcher: hanging as never,
      timeoutMs: 2000,
    });
    const result = await outcome(clock, api.courses({ retries: 0 }), 500);
    expect(result.error).toBeInstanceOf(TrainingApiError);
    expect((result.error as TrainingApiError).kind).toBe('outage');
    expect((result.error as Error).message).toMatch(
      /did not answer GET \/api\/public\/v1\/courses within 2000 ms \(api\.timeoutMs\)/,
    );
  });

  it('waits out a 429 for Retry-After, then retries; every request waits', async () => {
    let calls = 0;
    const { api, clock, requests, lines } = testLearning(() =>
      ++calls === 1
        ? { status: 429, body: { error: { code: 'rate_limited' } }, headers: { 'retry-after': '7' } }
        : json({ courses: [] }),
    );
    const result = await outcome(clock, api.courses(), 500);
    expect(result.value).toEqual([]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(7000);
    expect(
      lines.some((l) =>
        /rate limited GET \/api\/public\/v1\/courses \(429\); every training request waits 7 s/.test(
          l.message,
        ),
      ),
    ).toBe(true);
  });

  it('retries reads after a 503 with backoff, never a link request', async () => {
    let calls = 0;
    const { api, clock, requests } = testLearning((r) =>
      r.method === 'POST' || ++calls <= 2
        ? { status: 503, text: '<html>bad gateway</html>' }
        : json({ courses: [] }),
    );
    expect((await outcome(clock, api.courses(), 500)).value).toEqual([]);
    expect(requests.filter((r) => r.method === 'GET')).toHaveLength(3);
    const post = await outcome(clock, api.requestLink('123456', 'Ned'), 500);
    expect(post.error).toBeInstanceOf(TrainingApiError);
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('retries an enrollment after an outage: the document says it is safe to repeat', async () => {
    let calls = 0;
    const { api, clock, requests } = testLearning(() =>
      ++calls === 1 ? { status: 502, text: 'proxy' } : json({ enrollment: {} }, 200),
    );
    expect((await outcome(clock, api.enroll('c', 's'), 500)).value).toEqual({ created: false });
    expect(requests).toHaveLength(2);
    expect(JSON.parse(requests[1]!.body!)).toEqual({ course_id: 'c', user_sub: 's' });
  });

  it('stays within training.perMinute', async () => {
    const { api, clock, requests } = testLearning(() => json({ linked: false }), { perMinute: 6 });
    const all = Promise.all(Array.from({ length: 8 }, (_, i) => api.link(String(100000 + i))));
    await outcome(clock, all, 1000);
    const times = requests.map((r) => r.at);
    expect(times.filter((t) => t - times[0]! < 60_000).length).toBeLessThanOrEqual(6);
  });
});

describe('learning client errors', () => {
  it('401: says to set a new key, never quoting it', async () => {
    const { api } = testLearning(() => error(401, 'unauthorized', `bad key ${KEY}`));
    const failure = (await api.courses().then(
      () => undefined,
      (e: unknown) => e,
    )) as TrainingApiError;
    expect(failure.kind).toBe('refused');
    expect(failure.message).toMatch(/refused the training API key \(401\).*set roster_training_api_key/);
    expect(failure.message).not.toContain(KEY);
    expect(failure.message).toContain('[redacted]');
  });

  it.each([
    [
      'feature_disabled',
      'The discord feature is disabled for this organization',
      '/discord/completions',
      'flag discord',
      /`discord` feature flag is off/,
    ],
    [
      'feature_disabled',
      'The gamification feature is disabled',
      '/discord/gamification/1',
      'flag gamification',
      /`gamification` feature flag/,
    ],
    [
      'insufficient_scope',
      'This key lacks the enroll:write scope',
      '/enrollments',
      'scope enroll:write',
      /lacks the `enroll:write` scope/,
    ],
    ['forbidden', '', '/discord/links/1', 'flag discord', /`discord` feature flag/],
    ['forbidden', '', '/discord/gamification/1', 'flag gamification', /`gamification` feature flag/],
    ['forbidden', '', '/enrollments', 'scope enroll:write', /`enroll:write` scope/],
    [
      'feature_disabled',
      'api_access is off',
      '/discord/links/1',
      'flag api_access',
      /`api_access` feature flag/,
    ],
  ])('403 %s names what is missing', async (code, message, path, missing, text) => {
    const { api } = testLearning(() => error(403, code, message));
    const call =
      path === '/enrollments'
        ? api.enroll('c', 's')
        : path.startsWith('/discord/gamification')
          ? api.progress('1')
          : path === '/discord/completions'
            ? api.linkedCompletions()
            : api.link('1');
    const failure = (await (call as Promise<unknown>).then(
      () => undefined,
      (e: unknown) => e,
    )) as TrainingApiError;
    expect(failure.missing).toBe(missing);
    expect(failure.message).toMatch(text);
  });

  it('404 on progress reads as "not linked"; on a link lookup it is an outage naming training.baseUrl', async () => {
    const { api } = testLearning(() => error(404, 'not_found', 'no such route'));
    expect(await api.progress('1')).toBeNull();
    const failure = await api.link('1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTrainingOutage(failure)).toBe(true);
    expect((failure as Error).message).toMatch(
      /404 to GET \/discord\/links\/\{discord_id\}.*training\.baseUrl does not point/,
    );
  });

  it('a 2xx that is not JSON is an outage naming training.baseUrl', async () => {
    const { api, clock } = testLearning(() => ({ status: 200, text: '<html>' }));
    const failure = await outcome(clock, api.courses(), 500);
    expect((failure.error as Error).message).toMatch(/not JSON.*training\.baseUrl/);
  });

  it('a network failure names the address, never the key', async () => {
    const broken = {
      request: () =>
        Promise.reject(Object.assign(new Error(`ECONNREFUSED ${KEY}`), { code: 'ECONNREFUSED' })),
      close: async () => {},
    };
    const { api, clock } = testLearning(() => json({}), { dispatcher: broken as never });
    const failure = await outcome(clock, api.courses({ retries: 0 }), 500);
    expect((failure.error as Error).message).toMatch(
      /Could not reach the learning service at https:\/\/learn.test .*ECONNREFUSED/,
    );
    expect((failure.error as Error).message).not.toContain(KEY);
  });
});

describe('learning answer size', () => {
  it('an answer over training.maxBodyMB is unreadable: an outage read no further and never retried', async () => {
    const { api, clock, requests } = testLearning(
      () => ({ status: 200, text: `{"data":[${'1,'.repeat(600_000)}1]}` }),
      { maxBodyBytes: 1024 * 1024 },
    );
    const result = await outcome(clock, api.courses(), 500);
    expect(result.error).toBeInstanceOf(TrainingApiError);
    expect(isTrainingOutage(result.error)).toBe(true);
    expect((result.error as Error).message).toMatch(/more than 1 MB; the resource stopped reading it/);
    expect(requests).toHaveLength(1);
  });
});

describe('a refused training key', () => {
  it('stops every request, is re-checked on a backing-off schedule and resumes by itself', async () => {
    let revoked = true;
    const { api, clock, requests, lines } = testLearning((request) => {
      if (revoked) return error(401, 'unauthorized', 'The API key is invalid or revoked');
      return request.path.endsWith('/me')
        ? json({ org: { id: 'o1', name: 'Academy', alias: 'acad' }, scopes: ['read'], flags: {} })
        : json({ courses: [] });
    });
    const first = await outcome(clock, api.courses(), 100);
    expect((first.error as TrainingApiError).status).toBe(401);
    expect(lines.some((l) => l.level === 'error' && /Requests are stopped/.test(l.message))).toBe(true);
    // While suspended: refused at once, nothing sent.
    const during = await outcome(clock, api.courses(), 100);
    expect((during.error as TrainingApiError).status).toBe(401);
    expect(requests).toHaveLength(1);
    // Re-checks after 15 s, then 30 s: the schedule backs off.
    await clock.advance(15_000);
    expect(requests.map((r) => r.path)).toEqual(['/api/public/v1/courses', '/api/public/v1/me']);
    await clock.advance(29_000);
    expect(requests).toHaveLength(2);
    revoked = false;
    await clock.advance(1_000);
    expect(requests).toHaveLength(3);
    expect(lines.some((l) => /training API key works again/.test(l.message))).toBe(true);
    expect((await outcome(clock, api.courses(), 100)).value).toEqual([]);
    await api.close();
  });
});
