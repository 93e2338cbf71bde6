import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import { call } from './http';

let mock: MockLearning;
beforeAll(async () => {
  mock = await startMockLearning({ keys: [{ name: 'toRevoke', scopes: ['read'] }] });
});
afterAll(() => mock.close());

describe('mock learning authentication', () => {
  it('issues keys of the form <KEY_PREFIX>_<prefix>_<secret>', () => {
    expect(mock.keys.enroll).toMatch(/^lms_k[0-9a-f]{8}_[0-9a-f]{32}$/);
    expect(mock.keys.enroll.split('_')[1]).toBe(mock.keyPrefix('enroll'));
  });

  it('accepts Authorization: Bearer, and X-API-Key as the assumed second way', async () => {
    expect((await call(mock, '/courses', { style: 'bearer' })).status).toBe(200);
    expect((await call(mock, '/courses', { style: 'x-api-key' })).status).toBe(200);
  });

  it.each([
    ['missing', null],
    ['malformed', 'not-a-key'],
    ['unknown', 'lms_knope_0123456789'],
  ])('refuses a %s key with 401 in the error envelope', async (_label, key) => {
    const reply = await call(mock, '/courses', { key });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(reply.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('refuses a wrong secret for a real prefix, and a revoked key', async () => {
    expect((await call(mock, '/me', { key: `${mock.keys.enroll.slice(0, -4)}0000` })).status).toBe(401);
    expect((await call(mock, '/me', { key: mock.keys.revoked })).status).toBe(401);
  });

  it('refuses a key revoked mid-run on its very next request', async () => {
    expect((await call(mock, '/courses', { key: mock.keys.toRevoke! })).status).toBe(200);
    mock.faults.revokeKey('toRevoke');
    expect((await call(mock, '/courses', { key: mock.keys.toRevoke! })).status).toBe(401);
  });

  it('GET /me returns the key identity: tenant, org, scopes, flags', async () => {
    const reply = await call(mock, '/me', { key: mock.keys.read });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      tenant_id: mock.org.tenant_id,
      org: { alias: 'lsrp-academy', name: 'LSRP Academy', edition: 'professional' },
      scopes: ['read'],
      flags: { discord: true, gamification: true, api_access: true },
    });
  });

  it('GET /me works for a key without scopes; other endpoints answer 403 naming the scope', async () => {
    expect((await call(mock, '/me', { key: mock.keys.none })).status).toBe(200);
    const reply = await call(mock, '/courses', { key: mock.keys.none });
    expect(reply.status).toBe(403);
    expect(reply.json.error).toMatchObject({ code: 'insufficient_scope', details: { scope: 'read' } });
    expect(reply.json.error.message).toContain('read');
  });

  it('enroll:write includes read; read alone cannot enroll (403 naming enroll:write)', async () => {
    expect((await call(mock, '/completions', { key: mock.keys.enroll })).status).toBe(200);
    const course = mock.data.course('Police Academy')!;
    const reply = await call(mock, '/enrollments', {
      key: mock.keys.read,
      method: 'POST',
      body: { course_id: course.id, user_sub: mock.data.users[5]!.user_sub },
    });
    expect(reply.status).toBe(403);
    expect(reply.json.error).toMatchObject({
      code: 'insufficient_scope',
      details: { scope: 'enroll:write' },
    });
  });

  it('answers unknown endpoints with 404 and wrong methods with 405 and Allow', async () => {
    expect((await call(mock, '/nope')).json.error.code).toBe('not_found');
    const reply = await call(mock, '/courses', { method: 'DELETE' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
  });
});

describe('mock learning feature flags', () => {
  it('discord off: every /discord/* endpoint answers 403 naming the flag', async () => {
    mock.faults.flagOff('discord');
    try {
      for (const path of [
        '/discord/links/210000000000000001',
        '/discord/completions',
        '/discord/expiring-certificates',
      ]) {
        const reply = await call(mock, path);
        expect(reply.status).toBe(403);
        expect(reply.json.error).toMatchObject({ code: 'feature_disabled', details: { flag: 'discord' } });
        expect(reply.json.error.message).toContain('discord');
      }
      expect((await call(mock, '/courses')).status).toBe(200);
      expect((await call(mock, '/me')).json.flags.discord).toBe(false);
    } finally {
      mock.faults.clear();
    }
  });

  it('gamification off: gamification endpoints answer 403 naming it; the other discord endpoints work', async () => {
    mock.faults.flagOff('gamification');
    try {
      for (const path of ['/discord/gamification/210000000000000001', '/gamification/leaderboard']) {
        const reply = await call(mock, path);
        expect(reply.status).toBe(403);
        expect(reply.json.error.details).toEqual({ flag: 'gamification' });
      }
      expect((await call(mock, '/discord/links/210000000000000001')).status).toBe(200);
    } finally {
      mock.faults.clear();
    }
    expect((await call(mock, '/gamification/leaderboard')).status).toBe(200);
  });

  it('api_access off: every keyed endpoint but /me answers 403 naming api_access', async () => {
    mock.faults.flagOff('api_access');
    try {
      const reply = await call(mock, '/courses');
      expect(reply.status).toBe(403);
      expect(reply.json.error.details).toEqual({ flag: 'api_access' });
      expect((await call(mock, '/me')).json.flags.api_access).toBe(false);
    } finally {
      mock.faults.clear();
    }
  });

  it('flags can start off', async () => {
    const off = await startMockLearning({ flags: { gamification: false } });
    try {
      expect((await call(off, '/gamification/leaderboard')).status).toBe(403);
      expect((await call(off, '/me')).json.flags).toEqual({
        discord: true,
        gamification: false,
        api_access: true,
      });
    } finally {
      await off.close();
    }
  });
});
