import { afterEach, describe, expect, it } from 'vitest';
import { type GateServer, sleep, startGateServer } from '../../../dev/bench/gate-servers';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';

let mock: MockRoster;
let gate: GateServer | undefined;

afterEach(async () => {
  gate?.close();
  gate = undefined;
  await mock?.close();
});

async function naiveGate(options: { keyName?: string; refreshSeconds?: number } = {}) {
  // A clock that stands still: the mock's fixed minute window never rolls over mid-test.
  mock = await startMockRoster({ port: 0, members: 50, seed: 1, now: () => Date.UTC(2025, 5, 2, 12) });
  gate = await startGateServer('naive', mock, {
    apiKey: mock.keys[options.keyName ?? 'full'] ?? mock.keys.full,
    naive: { cacheSeconds: 300, refreshSeconds: options.refreshSeconds ?? 0 },
  });
  return gate.server;
}

const connect = (server: Awaited<ReturnType<typeof naiveGate>>, license: string) =>
  server.connectPlayer({ name: license.slice(8, 14), identifiers: [license] }).decision;

const members = () => mock.counters.log.filter((e) => e.endpoint === 'GET /api/v1/members');

describe('the naive gate the benchmark compares against', () => {
  it('sends one members request per joining player, never batching or coalescing', async () => {
    const server = await naiveGate();
    const strangers = [0, 1, 2, 3, 4].map((n) => mock.data.nonMemberLicense(n));
    const decisions = await Promise.all(strangers.map((license) => connect(server, license)));
    expect(decisions.every((d) => !d.admitted)).toBe(true);
    expect(mock.counters.total).toBe(5);
    expect(members().map((e) => new URLSearchParams(e.query).getAll('gameLicense'))).toEqual(
      expect.arrayContaining(strangers.map((license) => [license])),
    );
  });

  it('asks for the assignments of a member in a second request and caches the answer per license', async () => {
    const server = await naiveGate();
    const active = mock.data.memberWithStatus('ACTIVE');
    expect((await connect(server, active.gameLicense)).admitted).toBe(true);
    expect(mock.counters.log.map((e) => e.endpoint)).toEqual([
      'GET /api/v1/members',
      'GET /api/v1/department-assignments',
    ]);
    server.dropPlayer(server.playerList()[0]!.id);
    expect((await connect(server, active.gameLicense)).admitted).toBe(true);
    expect(mock.counters.total).toBe(2);
  });

  it('admits ACTIVE members only', async () => {
    const server = await naiveGate();
    expect((await connect(server, mock.data.suspendedMember().gameLicense)).admitted).toBe(false);
    expect((await connect(server, mock.data.memberWithStatus('LOA').gameLicense)).admitted).toBe(false);
  });

  it('takes a 429 as "not on the roster" and does not cache it', async () => {
    const server = await naiveGate();
    const active = mock.data.memberWithStatus('ACTIVE');
    mock.faults.rateLimit(1);
    const refused = await connect(server, active.gameLicense);
    expect(refused).toMatchObject({ admitted: false, reason: 'You are not on the roster.' });
    expect(mock.counters.rateLimited).toBe(1);
    expect((await connect(server, active.gameLicense)).admitted).toBe(true);
  });

  it('has no limiter: it sends past the key limit and refuses everyone the service turned away', async () => {
    const server = await naiveGate({ keyName: 'lowLimit' });
    const strangers = Array.from({ length: 15 }, (_, n) => mock.data.nonMemberLicense(n));
    await Promise.all(strangers.map((license) => connect(server, license)));
    expect(mock.counters.total).toBe(15);
    expect(mock.counters.rateLimited).toBe(5);
  });

  it('re-checks every online player on its refresh interval, one lookup each', async () => {
    const server = await naiveGate({ refreshSeconds: 1 });
    const active = mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 3);
    for (const member of active) expect((await connect(server, member.gameLicense)).admitted).toBe(true);
    const before = members().length;
    await sleep(1_300);
    expect(members().length - before).toBe(3);
  });
});
