import { describe, expect, it } from 'vitest';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { eventually, startHarness } from '../harness';
import { fleetServer, joins, rosterReads, sharingLine } from './fleet';
import { closeAfterEach, config, twoServers } from './two-servers';

const keep = closeAfterEach();

describe('two servers, one roster', () => {
  it('only the reader reads the roster; a suspension reaches the follower at its next join with no request of its own', async () => {
    const { h, events } = await twoServers(keep);
    expect(events.logText()).toMatch(
      /sharing the roster through the database: main reads it, this server follows/,
    );
    const active = h.mock.data.members.filter((m) => m.status === 'ACTIVE');
    expect(await joins(events.server, active[0]!.gameLicense, 'First')).toBe(true);

    h.mock.dashboard.setStatus(active[1]!.id, 'SUSPENDED');
    // The reader's audit feed re-reads the member and writes it; the follower reads the database.
    await eventually(
      async () => !(await joins(events.server, active[1]!.gameLicense, 'Second')),
      15_000,
      100,
    );
    // The follower never read the roster or the audit log itself: every decision was its copy's.
    expect(rosterReads(events.seen)).toEqual([]);
    const line = await sharingLine(events.server);
    expect(line).toMatch(
      /sharing: on as events, follower; reader main, lease \d+ s left, version \d+, this server \d+ behind/,
    );
  }, 60_000);
});

describe('write-through', () => {
  it('a member the follower looked up is written to the shared roster: the reader decides their join without asking', async () => {
    const { h, events } = await twoServers(keep);
    // Added without an audit entry and stamped as created long ago: no read of the reader's own
    // (audit feed, members created since its last read) brings them before a full read.
    const added = h.mock.data.addMember({ displayName: 'Newcomer' });
    added.createdAt = '2020-01-01T00:00:00.000Z';
    expect(await joins(events.server, added.gameLicense, 'Newcomer')).toBe(true);
    expect(events.seen.some((r) => r.query.get('gameLicense') === added.gameLicense)).toBe(true);
    const db = h.database!.db;
    await eventually(
      async () => {
        const rows = await db.query<{ member_id: string }[]>(
          'SELECT member_id FROM roster_share_members WHERE member_id = ? AND record IS NOT NULL',
          [added.id],
        );
        return rows.length === 1;
      },
      10_000,
      100,
    );
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
    const h = await startHarness({ database: true, members: 200, config: config('main') });
    keep(h);
    await eventually(() => /sharing .*this server reads it/.test(h.logText()), 20_000);
    await eventually(() => /the roster mirror holds \d+ members/.test(h.logText()), 20_000);
    const other = await fleetServer(h, config('events'), { apiKey: String(h.mock.keys.readOnly) });
    keep(h, other);
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
    await eventually(async () => JSON.stringify(await hashes()) === JSON.stringify(both), 10_000, 100);
  }, 60_000);
});

describe('a database that is not trusted blindly', () => {
  it('a garbage row is ignored with one warning; the other rows are followed', async () => {
    const h = await startHarness({ database: true, members: 200, config: config('main') });
    keep(h);
    await eventually(() => /the roster mirror holds \d+ members/.test(h.logText()), 20_000);
    await eventually(() => /sharing .*this server reads it/.test(h.logText()), 10_000);
    const keyHash = shareKeyHash(String(h.mock.keys.full));
    await h.database!.db.query(
      "INSERT INTO roster_share_members (key_hash, member_id, license, record, read_at, version) VALUES (?, 'mem_garbage', 'license:garbage', '{\"id\": 3', 1, 1)",
      [keyHash],
    );
    const follower = await fleetServer(h, config('events'));
    keep(h, follower);
    await eventually(() => follower.logText().includes("holds the shared roster's"), 20_000);
    expect(follower.logText().match(/could not be read and were ignored/g)).toHaveLength(1);
    const active = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    expect(await joins(follower.server, active.gameLicense)).toBe(true);
    expect(rosterReads(follower.seen)).toEqual([]);
  }, 60_000);
});
