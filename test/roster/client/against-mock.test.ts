import { afterEach, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { createRosterApi, type RosterApiOptions } from '../../../src/roster/client/roster-api';
import { FakeClock } from '../../http/limiter/fake-clock';
import { recordingLogger } from './fake-roster';

// Real HTTP on loopback; the mock's rate-limit windows and the client's limiter share one fake
// clock. Fake time moves in small steps while real I/O gets a moment between them, so rate-limit
// waits are never slept through.
let mock: MockRoster | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function client(clock: FakeClock, server: MockRoster, overrides: Partial<RosterApiOptions> = {}) {
  const { logger, lines } = recordingLogger();
  const api = createRosterApi({
    baseUrl: server.url,
    apiKey: server.keys.full,
    timeoutMs: 60_000,
    perMinute: 120,
    perDay: 25_000,
    userAgent: 'roster-fivem/test',
    clock,
    logger,
    ...overrides,
  });
  return { api, lines };
}

async function drive(clock: FakeClock, work: Promise<unknown>, stepMs = 100, maxMs = 900_000): Promise<void> {
  let done = false;
  work.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let elapsed = 0; !done && elapsed < maxMs; elapsed += stepMs) {
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    await clock.advance(stepMs);
  }
  expect(done).toBe(true);
}

describe('against the mock roster service', () => {
  it('a storm of 1,000 joining licenses within 10 s: right answers, zero 429s, under the limit', async () => {
    const clock = new FakeClock();
    const server = await startMockRoster({ port: 0, members: 1200, seed: 1, now: () => clock.now() });
    mock = server;
    const { api } = client(clock, server);
    const licenses = Array.from({ length: 1000 }, (_, index) =>
      index % 10 === 9 ? server.data.nonMemberLicense(index) : server.data.licenseOf(index),
    );
    const answers: Array<Promise<unknown>> = [];
    const storm = (async () => {
      for (let index = 0; index < licenses.length; index++) {
        answers.push(api.lookup(licenses[index]!, 'join'));
        if (index % 100 === 99) await clock.advance(1000);
      }
    })();
    await drive(
      clock,
      storm.then(() => Promise.all(answers)),
    );
    const results = (await Promise.all(answers)) as Array<{
      member: { id: string };
      assignments: unknown[];
    } | null>;
    results.forEach((result, index) => {
      const expected = server.data.memberByLicense(licenses[index]!);
      expect(result?.member.id ?? null).toBe(expected?.id ?? null);
      if (expected) expect(result?.assignments.length).toBe(server.data.assignmentsOf(expected.id).length);
    });
    expect(server.counters.rateLimited).toBe(0);
    expect(server.counters.total).toBeLessThanOrEqual(30);
    expect(server.counters.maxInRolling60s(server.keyId('full'))).toBeLessThanOrEqual(120);
    await api.close();
  });

  it('two clients on one key stay under the key limit together and finish their work', async () => {
    const clock = new FakeClock();
    const server = await startMockRoster({ port: 0, members: 50, seed: 2, now: () => clock.now() });
    mock = server;
    const a = client(clock, server);
    const b = client(clock, server);
    const calls = [a, b].flatMap(({ api }) =>
      Array.from({ length: 150 }, () => api.get('/api/v1/departments', {}, 'background')),
    );
    await drive(clock, Promise.all(calls));
    await Promise.all(calls);
    // The key's limit is counted per calendar minute by the service: per minute, what the two
    // clients sent together (429s included) stays within it.
    const perMinute = new Map<number, number>();
    for (const entry of server.counters.log) {
      const minute = Math.floor(entry.time / 60_000);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    }
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(120 + server.counters.rateLimited);
    // Sharing a key, a client can only learn of the other's requests from the headers, so a rare
    // 429 at a window's end is possible; it is honoured, never hammered.
    expect(server.counters.rateLimited).toBeLessThanOrEqual(6);
    await a.api.close();
    await b.api.close();
  });

  it('whoami, catalog and a refused key, over real HTTP', async () => {
    const clock = new FakeClock();
    const server = await startMockRoster({ port: 0, members: 20, seed: 3, now: () => clock.now() });
    mock = server;
    const { api } = client(clock, server);
    const identity = await api.whoami();
    expect(identity.community.name).toBe('San Andreas Roleplay');
    expect(identity.scopes).toContain('roster:read');
    const catalog = api.catalog();
    await drive(clock, catalog);
    expect((await catalog).departments.map((department) => department.shortName)).toContain('LSPD');
    await api.close();

    const revoked = client(clock, server, { apiKey: server.keys.revoked });
    await expect(revoked.api.whoami()).rejects.toMatchObject({ code: 'invalid_api_key', kind: 'refused' });
    await revoked.api.close();
  });
});
