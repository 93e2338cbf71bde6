import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster;
beforeAll(async () => {
  mock = await startMockRoster({
    members: 50,
    keys: [
      { name: 'loopbackOnly', scopes: ['roster:read'], ipAllowlist: ['127.0.0.1'] },
      { name: 'toRevoke', scopes: ['roster:read'] },
    ],
  });
});
afterAll(() => mock.close());

describe('mock roster authentication', () => {
  it('accepts the key as Authorization: Bearer and as X-API-Key', async () => {
    expect((await call(mock, '/api/v1/members', { style: 'bearer' })).status).toBe(200);
    expect((await call(mock, '/api/v1/members', { style: 'x-api-key' })).status).toBe(200);
  });

  it('issues keys of the form <prefix>_<id>_<secret>', () => {
    expect(mock.keys.full).toMatch(/^rstr_k[0-9a-f]{10}_[0-9a-f]{40}$/);
    expect(mock.keys.full.split('_')[1]).toBe(mock.keyId('full'));
  });

  it.each([
    ['missing', null],
    ['malformed', 'not-a-key'],
    ['unknown', 'rstr_knope_0123456789'],
  ])('refuses a %s key with 401 invalid_api_key', async (_label, key) => {
    const reply = await call(mock, '/api/v1/members', { key });
    expect(reply.status).toBe(401);
    expect(reply.json.error.code).toBe('invalid_api_key');
  });

  it('refuses a wrong secret for a real key id', async () => {
    const reply = await call(mock, '/api/v1/whoami', { key: `${mock.keys.full.slice(0, -4)}0000` });
    expect(reply.status).toBe(401);
    expect(reply.json.error.code).toBe('invalid_api_key');
  });

  it('refuses revoked and expired keys with invalid_api_key', async () => {
    for (const key of [mock.keys.revoked, mock.keys.expired]) {
      const reply = await call(mock, '/api/v1/whoami', { key });
      expect(reply.status).toBe(401);
      expect(reply.json.error.code).toBe('invalid_api_key');
    }
  });

  it('refuses a key revoked mid-run on its very next request', async () => {
    expect((await call(mock, '/api/v1/members', { key: mock.keys.toRevoke! })).status).toBe(200);
    mock.faults.revokeKey('toRevoke');
    const reply = await call(mock, '/api/v1/members', { key: mock.keys.toRevoke! });
    expect(reply.json.error.code).toBe('invalid_api_key');
  });

  it('whoami confirms the key, names the community and lists its scopes', async () => {
    const reply = await call(mock, '/api/v1/whoami', { key: mock.keys.rosterOnly });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toMatchObject({
      valid: true,
      community: { id: mock.community.id, name: 'San Andreas Roleplay' },
      scopes: ['roster:read'],
    });
  });

  it('answers the endpoint index without a key', async () => {
    const reply = await call(mock, '/api/v1', { key: null });
    expect(reply.status).toBe(200);
    const paths = reply.json.data.endpoints.map(
      (e: { method: string; path: string }) => `${e.method} ${e.path}`,
    );
    expect(paths).toContain('GET /api/v1/members');
    expect(paths).toContain('PATCH /api/v1/department-assignments/{id}');
  });
});

describe('mock roster scopes', () => {
  it('refuses a missing scope with 403 insufficient_scope naming the scope', async () => {
    const reply = await call(mock, '/api/v1/departments', { key: mock.keys.rosterOnly });
    expect(reply.status).toBe(403);
    expect(reply.json.error.code).toBe('insufficient_scope');
    expect(reply.json.error.message).toContain('departments:read');
  });

  it('lets a write scope read its group, never the reverse', async () => {
    expect((await call(mock, '/api/v1/ranks', { key: mock.keys.departmentsWrite })).status).toBe(200);
    const assignment = mock.data.assignmentsOf(mock.data.members[10]!.id)[0]!;
    const patch = await call(mock, `/api/v1/department-assignments/${assignment.id}`, {
      key: mock.keys.readOnly,
      method: 'PATCH',
      body: { rankId: assignment.rankId },
    });
    expect(patch.status).toBe(403);
    expect(patch.json.error.message).toContain('roster:write');
  });

  it('needs timelogs:read for duty sessions and audit:read for the audit log', async () => {
    const duty = await call(mock, '/api/v1/duty-sessions', { key: mock.keys.rosterOnly });
    expect(duty.json.error.message).toContain('timelogs:read');
    const audit = await call(mock, '/api/v1/audit-logs', { key: mock.keys.rosterOnly });
    expect(audit.json.error.message).toContain('audit:read');
  });
});

describe('mock roster allowlist and plan', () => {
  it('refuses a caller off the key allowlist with 403 ip_not_allowed', async () => {
    const reply = await call(mock, '/api/v1/members', { key: mock.keys.allowlisted });
    expect(reply.status).toBe(403);
    expect(reply.json.error.code).toBe('ip_not_allowed');
    expect((await call(mock, '/api/v1/members', { key: mock.keys.loopbackOnly! })).status).toBe(200);
  });

  it('refuses every address while the IP fault is on', async () => {
    mock.faults.refuseIp();
    try {
      expect((await call(mock, '/api/v1/members')).json.error.code).toBe('ip_not_allowed');
    } finally {
      mock.faults.refuseIp(false);
    }
  });

  it('answers 402 plan_required while the community has no active plan', async () => {
    mock.faults.planLost();
    try {
      const reply = await call(mock, '/api/v1/whoami');
      expect(reply.status).toBe(402);
      expect(reply.json.error.code).toBe('plan_required');
    } finally {
      mock.faults.planLost(false);
    }
    expect((await call(mock, '/api/v1/whoami')).status).toBe(200);
  });
});
