import { describe, expect, it } from 'vitest';
import type { ClientStateChange } from '../../src/http/key-suspension';
import type { RosterServiceError } from '../../src/http/roster-api-error';
import { FakeClock, fail, fakeRoster, license, ok, outcome, testClient } from '../roster/client/fake-roster';

describe('a refused key stops the client', () => {
  it.each(['invalid_api_key', 'plan_required', 'ip_not_allowed'])(
    'after %s, calls reject at once without a request; whoami once a minute; resumes by itself',
    async (code) => {
      const clock = new FakeClock();
      let keyWorks = false;
      const { agent, requests } = fakeRoster(clock, (request) => {
        if (!keyWorks) return fail(403, code, 'no');
        if (request.path === '/api/v1/whoami')
          return ok({ communityName: 'LSRP', key: { scopes: ['roster:read'] } });
        return ok([]);
      });
      const { api, lines } = testClient(clock, agent);
      const changes: ClientStateChange[] = [];
      api.onStateChange((change) => changes.push(change));

      const first = (await outcome(clock, api.get('/api/v1/members'))).error as RosterServiceError;
      expect(first.code).toBe(code);
      expect(changes.map((change) => change.state)).toEqual(['suspended']);
      expect(api.limiterState().suspended).toContain(first.message);

      const sent = requests.length;
      await expect(api.lookup(license(1))).rejects.toBe(first);
      await expect(api.get('/api/v1/departments')).rejects.toBe(first);
      await expect(api.whoami()).rejects.toBe(first);
      expect(requests.length).toBe(sent);

      // Re-checked with whoami once a minute, and nothing else is sent meanwhile.
      await clock.advance(60_000);
      await clock.advance(60_000);
      expect(requests.slice(sent).map((request) => request.path)).toEqual([
        '/api/v1/whoami',
        '/api/v1/whoami',
      ]);
      const gap = requests[sent + 1]!.at - requests[sent]!.at;
      expect(gap).toBeGreaterThanOrEqual(60_000);

      keyWorks = true;
      await clock.advance(60_000);
      expect(changes.map((change) => change.state)).toEqual(['suspended', 'resumed']);
      expect(lines.some((line) => line.level === 'info' && /works again/.test(line.message))).toBe(true);
      await expect(api.lookup(license(1))).resolves.toBeNull();
      await api.close();
    },
  );

  it('insufficient_scope does not stop other requests', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, (request) =>
      request.path === '/api/v1/departments'
        ? fail(403, 'insufficient_scope', 'Requires departments:read')
        : ok([]),
    );
    const { api } = testClient(clock, agent);
    const { error } = await outcome(clock, api.get('/api/v1/departments'));
    expect((error as RosterServiceError).message).toMatch(/lacks the scope departments:read/);
    await expect(api.get('/api/v1/members')).resolves.toEqual([]);
    expect(requests.length).toBe(2);
    expect(api.limiterState().suspended).toBeNull();
    await api.close();
  });
});
