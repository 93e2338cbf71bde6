import { describe, expect, it } from 'vitest';
import { readKeyIdentity } from '../../../src/roster/client/key-identity';
import { hasScope, scopeWarnings } from '../../../src/roster/client/scope-warnings';
import { FakeClock, fakeRoster, ok, testClient } from './fake-roster';

describe('whoami', () => {
  it('returns the community and scopes', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () =>
      ok({ valid: true, community: { id: 'c1', name: 'Los Santos RP' }, scopes: ['roster:read'] }),
    );
    const { api } = testClient(clock, agent);
    await expect(api.whoami()).resolves.toEqual({
      community: { id: 'c1', name: 'Los Santos RP' },
      scopes: ['roster:read'],
    });
    await api.close();
  });

  it('tolerates the shapes services use', () => {
    expect(
      readKeyIdentity({
        communityName: 'A',
        communityId: 7,
        key: { scopes: 'roster:read departments:write' },
      }),
    ).toEqual({
      community: { id: '7', name: 'A' },
      scopes: ['roster:read', 'departments:write'],
    });
    expect(readKeyIdentity({ community: 'B', apiKey: { scopes: ['audit:read'] } })).toEqual({
      community: { id: null, name: 'B' },
      scopes: ['audit:read'],
    });
    expect(readKeyIdentity(null)).toEqual({
      community: { id: null, name: '(unnamed community)' },
      scopes: [],
    });
  });
});

describe('scope warnings', () => {
  it('warns once per needed scope the key lacks; a write scope counts as read', () => {
    expect(scopeWarnings(['roster:read', 'departments:read'])).toEqual([]);
    expect(scopeWarnings(['roster:write', 'departments:write'])).toEqual([]);
    const warnings = scopeWarnings(['roster:read', 'timelogs:read']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/lacks the scope departments:read.*Settings, API Keys/);
    expect(scopeWarnings([])).toHaveLength(2);
    expect(hasScope(['ROSTER:READ'], 'roster:read')).toBe(true);
    expect(hasScope(['roster:read'], 'roster:write')).toBe(false);
  });
});
