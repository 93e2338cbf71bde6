import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster;
beforeAll(async () => {
  mock = await startMockRoster({
    members: 10,
    keys: [{ name: 'one', scopes: ['roster:read'], perMinute: 1 }],
  });
});
afterAll(() => mock.close());

describe('mock roster counters', () => {
  it('counts requests per endpoint and per key, refusals, and logs each request', async () => {
    mock.counters.reset();
    await call(mock, '/api/v1/members?status=ACTIVE');
    await call(mock, '/api/v1/members');
    await call(mock, '/api/v1/departments', { key: mock.keys.readOnly });
    await call(mock, '/api/v1/members', { key: mock.keys.one! });
    await call(mock, '/api/v1/members', { key: mock.keys.one! });
    await call(mock, '/api/v1/whoami', { key: mock.keys.revoked });

    expect(mock.counters.byEndpoint()).toMatchObject({
      'GET /api/v1/members': 4,
      'GET /api/v1/departments': 1,
      'GET /api/v1/whoami': 1,
    });
    expect(mock.counters.byKey()).toMatchObject({
      [mock.keyId('full')]: 2,
      [mock.keyId('readOnly')]: 1,
      [mock.keyId('one')]: 2,
      [mock.keyId('revoked')]: 1,
    });
    expect(mock.counters.total).toBe(6);
    expect(mock.counters.rateLimited).toBe(1);
    expect(mock.counters.errors).toBe(1);
    expect(mock.counters.log[0]).toMatchObject({
      method: 'GET',
      path: '/api/v1/members',
      query: '?status=ACTIVE',
      keyId: mock.keyId('full'),
      status: 200,
      time: expect.any(Number),
    });
    expect(mock.counters.log.map((e) => e.status)).toEqual([200, 200, 200, 200, 429, 401]);
  });
});
