import { afterEach, describe, expect, it } from 'vitest';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { eventually, type Harness, startHarness } from '../harness';
import { type FleetServer, fleetServer, joins, rosterReads, sharingLine, until } from './fleet';

// Two servers of one community on one key and one database: `main` (the harness's) starts first
// and reads the roster; `events` (its own emulator, the service through a counting proxy) follows.

let h: Harness | undefined;
let events: FleetServer | undefined;
afterEach(async () => {
  await events?.close();
  await h?.close();
  events = undefined;
  h = undefined;
});

const config = (serverName: string) => ({
  api: { timeoutMs: 15_000 },
  refresh: { intervalSeconds: 3600, auditSeconds: 1 },
  share: { enabled: true, serverName },
});

async function twoServers(members = 300): Promise<{ h: Harness; events: FleetServer }> {
  h = await startHarness({ database: true, members, config: config('main') });
  const harness = h;
  await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 20_000);
  await eventually(() => /sharing .*this server reads it/.test(harness.logText()), 10_000);
  events = await fleetServer(h, config('events'));
  const follower = events;
  await eventually(() => follower.logText().includes("holds the shared roster's"), 20_000);
  return { h: harness, events: follower };
}

describe('two servers, one roster', () => {
  it('only the reader reads the roster; a suspension reaches the follower at its next join with no request of its own', async () => {
    const { h, events } = await twoServers();
    expect(events.logText()).toMatch(
      /sharing the roster through the database: main reads it, this server follows/,
    );
    const active = h.mock.data.members.filter((m) => m.status === 'ACTIVE');
    expect(await joins(events.server, active[0]!.gameLicense, 'First')).toBe(true);

    h.mock.dashboard.setStatus(active[1]!.id, 'SUSPENDED');
    // The reader's audit feed re-reads the member and writes it; the follower reads the database.
    await until(async () => !(await joins(events.server, active[1]!.gameLicense, 'Second')), 15_000);
    // The follower never read the roster or the audit log itself: every decision was its copy's.
    expect(rosterReads(events.seen)).toEqual([]);
    const line = await sharingLine(events.server);
    expect(line).toMatch(
      /sharing: on as events, follower; reader main, lease \d+ s left, version \d+, this server \d+ behind/,
    );
  }, 60_000);

  it('the reader stopped mid-audit-pass: the other takes over within the lease, from the shared audit position, and honours a suspension made meanwhile', async () => {
    const { h, events } = await twoServers();
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[2]!;
    // The reader is killed: its database and its audit pass hang, its lease is never given back.
    h.mock.faults.failPath('/api/v1/audit-logs', 'hang');
    await new Promise((resolve) => setTimeout(resolve, 400));
    h.database?.link.stall();
    h.server.stop();
    h.mock.faults.clear();
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    const stoppedAt = Date.now();
    await eventually(
      () => /sharing .*this server reads it \(main's lease ran out\)/.test(events.logText()),
      45_000,
    );
    expect(Date.now() - stoppedAt).toBeLessThan(45_000);
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

describe('write-through', () => {
  it('a member the follower looked up is written to the shared roster: the reader decides their join without asking', async () => {
    const { h, events } = await twoServers();
    // Added without an audit entry and stamped as created long ago: no read of the reader's own
    // (audit feed, members created since its last read) brings them before a full read.
    const added = h.mock.data.addMember({ displayName: 'Newcomer' });
    added.createdAt = '2020-01-01T00:00:00.000Z';
    expect(await joins(events.server, added.gameLicense, 'Newcomer')).toBe(true);
    expect(events.seen.some((r) => r.query.get('gameLicense') === added.gameLicense)).toBe(true);
    const db = h.database!.db;
    await until(async () => {
      const rows = await db.query<{ member_id: string }[]>(
        'SELECT member_id FROM roster_share_members WHERE member_id = ? AND record IS NOT NULL',
        [added.id],
      );
      return rows.length === 1;
    }, 10_000);
    // Give the reader a moment to read the row, then its own decision: no request for that license.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await joins(h.server, added.gameLicense, 'Newcomer again')).toBe(true);
    const asked = h.mock.counters.log.filter(
      (e) => new URLSearchParams(e.query).get('gameLicense') === added.gameLicense,
    );
    expect(asked).toHaveLength(1);
  }, 60_000);
});

describe('another key on the same database', () => {
  it("never reads the first key's rows: it reads its own roster", async () => {
    h = await startHarness({ database: true, members: 200, config: config('main') });
    const harness = h;
    await eventually(() => /sharing .*this server reads it/.test(harness.logText()), 20_000);
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 20_000);
    events = await fleetServer(h, config('events'), { apiKey: String(h.mock.keys.readOnly) });
    const other = events;
    await eventually(() => /sharing .*this server reads it/.test(other.logText()), 20_000);
    await eventually(() => /the roster mirror holds \d+ members/.test(other.logText()), 20_000);
    expect(other.logText()).not.toContain("holds the shared roster's");
    expect(rosterReads(other.seen).length).toBeGreaterThan(0);
    const db = h.database!.db;
    const hashes = async () =>
      (await db.query<{ key_hash: string }[]>('SELECT DISTINCT key_hash FROM roster_share_members'))
        .map((r) => r.key_hash)
        .sort();
    const both = [shareKeyHash(String(h.mock.keys.full)), shareKeyHash(String(h.mock.keys.readOnly))].sort();
    await until(async () => JSON.stringify(await hashes()) === JSON.stringify(both), 10_000);
  }, 60_000);
});

describe('a database that is not trusted blindly', () => {
  it('refusing: sharing off for that server with one line, its decisions right from its own reads, back on later', async () => {
    const { h, events } = await twoServers();
    await events.database.link.refuse();
    await eventually(() => events.logText().includes("the shared roster's database did not answer"), 15_000);
    expect(events.logText().match(/shared roster's database did not answer/g)).toHaveLength(1);
    // Alone, it reads the roster itself again and stays right.
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[3]!;
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await until(async () => !(await joins(events.server, member.gameLicense, 'Alone')), 20_000);
    expect(rosterReads(events.seen).length).toBeGreaterThan(0);
    expect(await sharingLine(events.server)).toMatch(/sharing: off for this server/);

    events.database.link.restore();
    // Calls oxmysql never answered while refused count as lost after a minute; then it is asked again.
    await eventually(() => events.logText().includes('the database answers again'), 90_000);
    await eventually(
      async () => /sharing: on as events, follower/.test(await sharingLine(events.server)),
      10_000,
    );
  }, 150_000);

  it('stalled: past the bound sharing is off for that server, its copy stops deciding, its decisions stay right; back on when it moves', async () => {
    const { h, events } = await twoServers();
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[4]!;
    events.database.link.stall();
    await eventually(() => events.logText().includes("the shared roster's database did not answer"), 15_000);
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await until(async () => !(await joins(events.server, member.gameLicense, 'Stalled')), 20_000);
    expect(rosterReads(events.seen).length).toBeGreaterThan(0);

    events.database.link.restore();
    await eventually(() => events.logText().includes('the database answers again'), 30_000);
    await until(async () => /sharing: on as events, follower/.test(await sharingLine(events.server)), 10_000);
    expect(events.logText().match(/shared roster's database did not answer/g)).toHaveLength(1);
    // Following again: the member stays refused from the shared copy.
    expect(await joins(events.server, member.gameLicense, 'Again')).toBe(false);
  }, 120_000);

  it('a garbage row is ignored with one warning; the other rows are followed', async () => {
    h = await startHarness({ database: true, members: 200, config: config('main') });
    const harness = h;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 20_000);
    await eventually(() => /sharing .*this server reads it/.test(harness.logText()), 10_000);
    const keyHash = shareKeyHash(String(h.mock.keys.full));
    await h.database!.db.query(
      "INSERT INTO roster_share_members (key_hash, member_id, license, record, read_at, version) VALUES (?, 'mem_garbage', 'license:garbage', '{\"id\": 3', 1, 1)",
      [keyHash],
    );
    events = await fleetServer(h, config('events'));
    const follower = events;
    await eventually(() => follower.logText().includes("holds the shared roster's"), 20_000);
    expect(follower.logText().match(/could not be read and were ignored/g)).toHaveLength(1);
    const active = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    expect(await joins(follower.server, active.gameLicense)).toBe(true);
    expect(rosterReads(follower.seen)).toEqual([]);
  }, 60_000);
});
