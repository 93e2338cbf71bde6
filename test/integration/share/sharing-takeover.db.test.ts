import { describe, expect, it } from 'vitest';
import { eventually, startHarness } from '../harness';
import { fleetServer, joins, rosterReads } from './fleet';
import { closeAfterEach, config } from './two-servers';

// Apart from the other takeover (sharing-failover.db.test.ts): each waits out main's 30 s lease,
// and in files of their own the two waits run side by side.
const keep = closeAfterEach();

describe('the reader killed mid-read', () => {
  it('its first read under way, another takes the lease and reads the roster in full; nothing is decided from half a roster', async () => {
    const h = await startHarness({
      database: true,
      members: 300,
      config: config('main'),
      // The members are read, then the assignments hang: main's first read is under way.
      beforeStart: (mock) => {
        mock.faults.failPath('/api/v1/department-assignments', 'hang');
      },
    });
    keep(h);
    await eventually(() => /sharing .*this server reads it/.test(h.logText()), 15_000);
    await eventually(() => (h.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0) >= 1, 15_000);
    const follower = await fleetServer(h, config('events'));
    keep(h, follower);
    await eventually(() => /main reads it, this server follows/.test(follower.logText()), 15_000);
    // Nothing complete to follow: a member's join is looked up, never decided from half a roster.
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[5]!;
    expect(follower.logText()).not.toContain("holds the shared roster's");

    h.database?.link.stall();
    h.server.stop();
    h.mock.faults.clear();
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await eventually(() => /this server reads it \(main's lease ran out\)/.test(follower.logText()), 45_000);
    await eventually(
      () => /the roster mirror holds \d+ members: their joins/.test(follower.logText()),
      20_000,
    );
    expect(await joins(follower.server, member.gameLicense, 'Suspended')).toBe(false);
    const whole = rosterReads(follower.seen).filter(
      (r) => r.path === '/api/v1/members' && !r.query.has('gameLicense') && !r.query.has('createdAt.after'),
    );
    expect(whole.length).toBeGreaterThan(0);
  }, 120_000);
});
