import { describe, expect, it } from 'vitest';
import {
  type RosterApiError,
  RosterNetworkError,
  RosterResponseError,
  RosterServiceError,
} from '../../src/http/roster-api-error';
import { SERVICE_ERROR_CODES } from '../../src/http/service-error-codes';
import { API_KEY, FakeClock, fail, fakeRoster, outcome, testClient } from '../roster/client/fake-roster';

const STATUS: Record<string, number> = {
  invalid_api_key: 401,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  plan_required: 402,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  validation_error: 422,
  rate_limited: 429,
  internal: 500,
};

const EXPECTED: Record<string, { kind: string; says: RegExp }> = {
  invalid_api_key: { kind: 'refused', says: /missing, wrong, revoked or expired/ },
  insufficient_scope: { kind: 'refused', says: /lacks the scope roster:read/ },
  ip_not_allowed: { kind: 'refused', says: /not on the API key's IP allowlist/ },
  plan_required: { kind: 'refused', says: /not on an active Professional plan/ },
  not_found: { kind: 'rejected', says: /no such endpoint or record/ },
  method_not_allowed: { kind: 'rejected', says: /does not allow/ },
  conflict: { kind: 'rejected', says: /already exists or is still in use/ },
  validation_error: { kind: 'rejected', says: /rejected a field .*rankId/ },
  rate_limited: { kind: 'outage', says: /rate limiting this API key/ },
  internal: { kind: 'outage', says: /internal fault/ },
};

describe('service error codes', () => {
  it.each(SERVICE_ERROR_CODES)(
    '%s becomes a typed error with the request id and an actionable message',
    async (code) => {
      const clock = new FakeClock();
      const { agent } = fakeRoster(clock, () => {
        const reply = fail(
          STATUS[code]!,
          code,
          code === 'insufficient_scope' ? 'Requires scope roster:read' : 'x',
          {
            'retry-after': '1',
          },
        );
        const body = reply.body as { error: Record<string, unknown>; meta: Record<string, unknown> };
        if (code === 'validation_error') body.error.details = { field: 'rankId' };
        body.meta.request_id = 'req_abc';
        return reply;
      });
      const { api } = testClient(clock, agent, { retry: { maxRateLimitRetries: 0 } });
      const { error } = await outcome(clock, api.get('/api/v1/members'));
      expect(error).toBeInstanceOf(RosterServiceError);
      const typed = error as RosterServiceError;
      expect(typed.code).toBe(code);
      expect(typed.kind).toBe(EXPECTED[code]!.kind);
      expect(typed.requestId).toBe('req_abc');
      expect(typed.message).toMatch(EXPECTED[code]!.says);
      expect(typed.message).toContain('req_abc');
      await api.close();
    },
  );

  it('an unknown code is still a typed error, judged by its HTTP status', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => fail(418, 'teapot', 'short and stout'));
    const { api } = testClient(clock, agent);
    const { error } = await outcome(clock, api.get('/api/v1/members'));
    expect(error).toBeInstanceOf(RosterServiceError);
    expect((error as RosterServiceError).code).toBe('teapot');
    expect((error as RosterServiceError).kind).toBe('rejected');
    expect((error as Error).message).toMatch(/does not know \(teapot, HTTP 418\).*short and stout/);
    await api.close();
  });

  it('takes the request id from X-Request-Id when meta has none', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => ({
      status: 404,
      body: { success: false, error: { code: 'not_found', message: 'nope' } },
      headers: { 'x-request-id': 'hdr_77' },
    }));
    const { api } = testClient(clock, agent);
    const { error } = await outcome(clock, api.get('/api/v1/nothing'));
    expect((error as RosterApiError).requestId).toBe('hdr_77');
    await api.close();
  });
});

describe('bodies that are not the envelope', () => {
  const cases: Array<[string, number, string, string]> = [
    ['an HTML 502 page', 502, '<html><body>Bad Gateway</body></html>', 'http_error'],
    ['malformed JSON', 200, '{"success": tru', 'malformed_response'],
    ['JSON of the wrong shape', 200, '{"ok": true, "items": []}', 'malformed_response'],
    ['success without data', 200, '{"success": true}', 'malformed_response'],
    ['an empty body', 200, '', 'malformed_response'],
  ];

  it.each(cases)('%s is an outage error, never a crash', async (_name, status, text, code) => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, () => ({
      status,
      text,
      headers: { 'content-type': 'text/html', 'x-request-id': 'req_html' },
    }));
    const { api } = testClient(clock, agent);
    const { error } = await outcome(clock, api.get('/api/v1/members'));
    expect(error).toBeInstanceOf(RosterResponseError);
    expect((error as RosterApiError).code).toBe(code);
    expect((error as RosterApiError).kind).toBe('outage');
    expect((error as RosterApiError).requestId).toBe('req_html');
    expect((error as Error).message).toMatch(/not the roster API's JSON/);
    // A 5xx page is retried (3 times), a 200 with garbage is not.
    expect(requests.length).toBe(status >= 500 ? 4 : 1);
    await api.close();
  });

  it('a network failure is a RosterNetworkError (outage) after its retries', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => {
      throw new Error('unused');
    });
    agent
      .get('https://down.test')
      .intercept({ path: () => true })
      .replyWithError(new Error('ECONNREFUSED'))
      .persist();
    const { api } = testClient(clock, agent, { baseUrl: 'https://down.test' });
    const { error } = await outcome(clock, api.get('/api/v1/members'));
    expect(error).toBeInstanceOf(RosterNetworkError);
    expect((error as RosterApiError).code).toBe('network');
    expect((error as RosterApiError).kind).toBe('outage');
    await api.close();
  });
});

describe('an answer echoing the key', () => {
  const fragments = (key: string) =>
    Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8)).filter((f) => f.length === 8);

  it.each([
    [
      'a text page',
      (key: string) => ({
        status: 400,
        text: `Rejected request; header authorization: Bearer ${key}\nGET /api/v1/members`,
      }),
    ],
    [
      'an error envelope whose message and details quote it',
      (key: string) => ({
        status: 400,
        body: {
          success: false,
          error: { code: 'validation_error', message: `bad header Bearer ${key}`, details: { header: key } },
        },
      }),
    ],
  ])('%s: no eight characters of the key reach the error', async (_name, reply) => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => reply(API_KEY));
    const { api } = testClient(clock, agent);
    const result = await outcome(clock, api.get('/api/v1/members'), 500);
    const error = result.error as Error & { details?: unknown };
    const seen = `${error.message} ${JSON.stringify(error.details ?? null)}`;
    for (const fragment of fragments(API_KEY)) expect(seen).not.toContain(fragment);
    await api.close();
  });
});
