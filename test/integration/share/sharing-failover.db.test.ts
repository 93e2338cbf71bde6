import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';
import { type FleetServer, fleetServer, joins, rosterReads, until } from './fleet';
import { config, twoServers } from './two-servers';

let h: Harness | undefined;
let events: FleetServer | undefined;
afterEach(async () => {
  await events?.close();
  await h?.close();
  events = undefined;
  h = undefined;
});
/** Keeps what a test started, for the clean-up after it. */
const keep = (harness: Harness, follower?: FleetServer) => {
  h = harness;
  events = follower;
};

describe('two servers, one roster: the reader goes', () => {
  it('the reader stopped mid-audit-pass: the other takes over within the lease, from the shared audit position, and honours a suspension made meanwhile', async () => {
    const { h, events } = await twoServers(keep);
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[2]!;
    // The reader is killed: its database and its audit pass hang, its lease is never given back.
    h.mock.faults.failPath('/api/v1/audit-logs', 'hang');
    await new Promise((resolve) => setTimeout(resolve, 400));
    h.database?.link.stall();
    h.server.stop();
    h.mock.faults.clear();
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await eventually(
      () => /sharing .*this server reads it \(main's lease ran out\)/.test(events.logText()),
      45_000,
    );
    await until(async () => !(await joins(events.server, member.gameLicense, 'Late')), 20_000);
    // Taken over from where main left the log: the audit log read, the roster not read again in full.
    const reads = rosterReads(events.seen);
    expect(reads.some((r) => r.path === '/api/v1/audit-logs')).toBe(true);
    const wholeLists = reads.filter(
      (r) => r.path === '/api/v1/members' && !r.query.has('gameLicense') && !r.query.has('createdAt.after'),
    );
    expect(wholeLists).toEqual([]);
  }, 120_000);
});

describe('the reader killed mid-read', () => {
  it('its first read under way, another takes the lease and reads the roster in full; nothing is decided from half a roster', async () => {
    h = await startHarness({
      database: true,
      members: 300,
      config: config('main'),
      // The members are read, then the assignments hang: main's first read is under way.
      beforeStart: (mock) => {
        mock.faults.failPath('/api/v1/department-assignments', 'hang');
      },
    });
    const harness = h;
    await eventually(() => /sharing .*this server reads it/.test(harness.logText()), 15_000);
    await eventually(() => (harness.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0) >= 1, 15_000);
    events = await fleetServer(h, config('events'));
    const follower = events;
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
