import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster;
beforeAll(async () => {
  mock = await startMockRoster({ members: 20 });
});
afterEach(() => {
  mock.faults.clear();
});
afterAll(() => mock.close());

describe('mock roster hostile answers', () => {
  it('echoes the credentials on a plain-text page', async () => {
    mock.faults.echoCredentials(1);
    const reply = await call(mock, '/api/v1/members');
    expect(reply.status).toBe(400);
    expect(reply.text).toContain(`authorization: Bearer ${mock.keys.full}`);
    expect((await call(mock, '/api/v1/members')).status).toBe(200);
  });

  it('sends a huge body, streamed', async () => {
    mock.faults.hugeBody(1, 3 * 1024 * 1024);
    const reply = await call(mock, '/api/v1/members');
    expect(reply.status).toBe(200);
    expect(reply.text.length).toBeGreaterThanOrEqual(3 * 1024 * 1024);
  });

  it('sets a far X-RateLimit-Reset on every answer while on', async () => {
    mock.faults.farReset('9999999999');
    expect((await call(mock, '/api/v1/whoami')).headers.get('x-ratelimit-reset')).toBe('9999999999');
    mock.faults.farReset(null);
    expect(Number((await call(mock, '/api/v1/whoami')).headers.get('x-ratelimit-reset'))).toBeLessThan(1e10);
  });

  it('says every list has another page while endless', async () => {
    mock.faults.endless();
    const reply = await call(mock, '/api/v1/members?page=50');
    expect(reply.json.data).toEqual([]);
    expect(reply.json.meta.pagination.has_more).toBe(true);
  });

  it.each(['missing', 'null', 'empty', 'renamed'] as const)(
    'sends members whose license is %s',
    async (how) => {
      mock.faults.unreadableMembers(how);
      const member = (await call(mock, '/api/v1/members?limit=1')).json.data[0];
      expect(
        member.gameLicense === undefined || member.gameLicense === null || member.gameLicense === '',
      ).toBe(true);
      if (how === 'renamed') expect(member.game_license).toMatch(/^license:/);
    },
  );
});

describe('mock roster faults', () => {
  it('adds latency to every response', async () => {
    mock.faults.latency(150);
    const started = performance.now();
    expect((await call(mock, '/api/v1/whoami')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('fails the next N requests with a proxy’s HTML 502/503 page, then recovers', async () => {
    mock.faults.failNext(2, 502);
    const first = await call(mock, '/api/v1/members');
    expect(first.status).toBe(502);
    expect(first.headers.get('content-type')).toContain('text/html');
    expect(first.json).toBeNull();
    expect((await call(mock, '/api/v1/members')).status).toBe(502);
    expect((await call(mock, '/api/v1/members')).status).toBe(200);
    mock.faults.failNext(1, 503);
    expect((await call(mock, '/api/v1/members')).status).toBe(503);
  });

  it('fails with 500 in the internal envelope, quoting the request id', async () => {
    mock.faults.failNext(1, 500);
    const reply = await call(mock, '/api/v1/members');
    expect(reply.status).toBe(500);
    expect(reply.json.error.code).toBe('internal');
    expect(reply.json.error.message).toContain(reply.json.meta.request_id);
    mock.faults.internal();
    expect((await call(mock, '/api/v1/departments')).status).toBe(500);
    expect((await call(mock, '/api/v1/ranks')).status).toBe(500);
  });

  it('cuts JSON bodies short while malformedJson is on', async () => {
    mock.faults.malformedJson(1);
    const reply = await call(mock, '/api/v1/members');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.json).toBeNull();
    expect((await call(mock, '/api/v1/members')).json.success).toBe(true);
  });

  it('hangs requests until the fault is cleared', async () => {
    mock.faults.hang();
    const pending = call(mock, '/api/v1/whoami');
    const raced = await Promise.race([pending, new Promise((r) => setTimeout(() => r('waiting'), 200))]);
    expect(raced).toBe('waiting');
    expect(mock.faults.hungCount).toBe(1);
    mock.faults.hang(false);
    expect((await pending).status).toBe(200);
  });

  it('drops the connection without any response', async () => {
    mock.faults.dropConnection(1);
    await expect(call(mock, '/api/v1/whoami')).rejects.toThrow();
    expect(mock.counters.dropped).toBeGreaterThanOrEqual(1);
    expect((await call(mock, '/api/v1/whoami')).status).toBe(200);
  });

  it('forces 429 with or without Retry-After', async () => {
    mock.faults.rateLimit(1, { retryAfter: 7 });
    const withHeader = await call(mock, '/api/v1/whoami');
    expect(withHeader.status).toBe(429);
    expect(withHeader.json.error.code).toBe('rate_limited');
    expect(withHeader.headers.get('retry-after')).toBe('7');
    mock.faults.rateLimit(1, { retryAfter: null });
    const without = await call(mock, '/api/v1/whoami');
    expect(without.status).toBe(429);
    expect(without.headers.get('retry-after')).toBeNull();
    expect(without.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await call(mock, '/api/v1/whoami')).status).toBe(200);
  });

  it('inlines departmentAssignments (rank expanded) on member records only while switched on', async () => {
    const id = mock.data.memberWithSeveralDepartments().id;
    expect((await call(mock, `/api/v1/members?id=${id}`)).json.data[0].departmentAssignments).toBeUndefined();
    mock.faults.inlineAssignments(true);
    try {
      const inline = (await call(mock, `/api/v1/members?id=${id}`)).json.data[0].departmentAssignments;
      expect(inline.length).toBeGreaterThanOrEqual(2);
      expect(inline[0]).toMatchObject({ memberId: id, rank: { id: inline[0].rankId } });
    } finally {
      mock.faults.inlineAssignments(false);
    }
  });

  it('switches faults through POST /__mock/faults for the CLI', async () => {
    const post = (body: unknown) =>
      fetch(`${mock.url}/__mock/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ failNext: { count: 1, status: 503 } })).status).toBe(200);
    expect((await call(mock, '/api/v1/whoami')).status).toBe(503);
    expect((await post({ planLost: true })).status).toBe(200);
    expect((await call(mock, '/api/v1/whoami')).json.error.code).toBe('plan_required');
    expect((await post({ clear: true })).status).toBe(200);
    expect((await call(mock, '/api/v1/whoami')).status).toBe(200);
    expect((await post({ nonsense: 1 })).status).toBe(400);
    const counters = (await (await fetch(`${mock.url}/__mock/counters`)).json()) as {
      byEndpoint: Record<string, number>;
    };
    expect(counters.byEndpoint['GET /api/v1/whoami']).toBeGreaterThan(0);
  });
});

describe('mock roster close()', () => {
  it('ends hung connections so nothing leaks', async () => {
    const own = await startMockRoster({ members: 5 });
    own.faults.hang();
    const pending = call(own, '/api/v1/whoami').then(
      () => 'answered',
      () => 'aborted',
    );
    await new Promise((r) => setTimeout(r, 50));
    // close() resolves (a hung connection would keep it waiting) and the caller sees the abort.
    await own.close();
    expect(await pending).toBe('aborted');
  });
});
