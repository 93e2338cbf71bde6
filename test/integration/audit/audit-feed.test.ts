/**
 * Changes made on the roster reach online players and the next join of
 * members who are not: the audit log read as a change feed, from the built bundle against the mock
 * roster over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, framesIn, type Harness, type HarnessOptions, startHarness } from '../harness';

const AUDIT = 'GET /api/v1/audit-logs';
const plain = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Online {
  id: number;
  member: MockMember;
}

/** `count` active, ranked members online and loaded; the periodic refresh is an hour away. */
async function online(count: number, options: HarnessOptions = {}) {
  h = await startHarness({
    // Requests counted per audit pass: the mirror's own reads (new members each pass) are not part of it.
    config: {
      rateLimit: { perMinute: 6000 },
      refresh: { intervalSeconds: 3600, auditSeconds: 1 },
      mirror: { enabled: false },
    },
    ...options,
  });
  const updated: [number, { status: string; departments: { rank: { name: string } | null }[] }][] = [];
  h.caller.on('roster:playerUpdated', (src, member) => updated.push(plain([src, member]) as never));
  const members = h.mock.data.members
    .filter((m) => m.status === 'ACTIVE' && h!.mock.data.assignmentsOf(m.id).every((a) => a.rankId !== null))
    .slice(0, count);
  const players: Online[] = [];
  for (const member of members) {
    const decision = await h.server.connectPlayer({
      name: member.displayName,
      identifiers: [member.gameLicense],
    }).decision;
    if (!decision.admitted) throw new Error(`${member.id} refused`);
    players.push({ id: decision.id, member });
  }
  const roster = h.caller.exports.roster!;
  for (const p of players) await eventually(() => roster.getRank!(p.id) !== null, 8000);
  return { players, updated };
}

/** Requests the mock saw from `mark` on, without the audit reads. */
function otherRequests(mark: number) {
  return h!.mock.counters.log.slice(mark).filter((e) => e.endpoint !== AUDIT);
}

/** Waits for `n` more audit reads than at `mark`, so an entry written before them was read. */
async function auditReads(mark: number, n: number): Promise<void> {
  await eventually(
    () =>
      h!.mock.counters.log.slice(mark).filter((e) => e.endpoint === AUDIT && e.status === 200).length >= n,
    8000,
  );
}

describe('the audit log as a change feed', () => {
  it('a dashboard rank change and a suspension of two of twenty online players re-read only those two', async () => {
    const { players, updated } = await online(20);
    await auditReads(h!.mock.counters.log.length, 1);
    const mark = h!.mock.counters.log.length;
    const [promoted, suspended] = [players[3]!, players[11]!];
    const assignment = h!.mock.data.assignmentsOf(promoted.member.id)[0]!;
    const ladder = h!.mock.data.data.ranks.filter((r) => r.departmentId === assignment.departmentId);
    const next = ladder.find((r) => r.id !== assignment.rankId)!;
    h!.mock.dashboard.setRank(promoted.member.id, next.id);
    h!.mock.dashboard.setStatus(suspended.member.id, 'SUSPENDED');

    await eventually(
      () => updated.some(([src]) => src === promoted.id) && updated.some(([src]) => src === suspended.id),
      8000,
    );
    const roster = h!.caller.exports.roster!;
    expect(roster.hasRank!(promoted.id, assignment.departmentId, next.name)).toBe(true);
    expect(roster.isOnRoster!(suspended.id)).toBe(false);
    expect(updated.map(([src]) => src).sort()).toEqual([promoted.id, suspended.id].sort());

    // Just those two were asked about, in one batch: one members and one assignments request.
    const asked = otherRequests(mark);
    expect(asked.map((e) => e.endpoint).sort()).toEqual([
      'GET /api/v1/department-assignments',
      'GET /api/v1/members',
    ]);
    const licenses = new URLSearchParams(
      asked.find((e) => e.endpoint === 'GET /api/v1/members')!.query,
    ).getAll('gameLicense');
    expect(licenses.sort()).toEqual([promoted.member.gameLicense, suspended.member.gameLicense].sort());
    // Reads are sorted by createdAt and start before the newest entry (a late commit is listed).
    const read = new URLSearchParams(h!.mock.counters.log.findLast((e) => e.endpoint === AUDIT)!.query);
    expect(read.get('sort')).toBe('createdAt');
    const newest = h!.mock.data.data.auditLogs.at(-1)!.createdAt;
    expect(Date.parse(read.get('createdAt.after') ?? '1970-01-01')).toBeLessThan(Date.parse(newest));

    // Read again and again: the same entries are never processed twice.
    const after = h!.mock.counters.log.length;
    await auditReads(after, 3);
    expect(otherRequests(after)).toEqual([]);
    expect(updated).toHaveLength(2);
  });

  it('an entry that names nothing known costs nothing; an entry of another shape still reaches its member', async () => {
    const { players, updated } = await online(5);
    const mark = h!.mock.counters.log.length;
    h!.mock.data.appendRawAudit({
      id: 'evt-1',
      action: 'document.create',
      changes: { title: { to: 'SOP' } },
    });
    await auditReads(mark, 2);
    expect(otherRequests(mark)).toEqual([]);

    // A change the mock does not audit, announced by an entry shaped unlike the mock's own.
    const target = players[2]!;
    const assignmentId = h!.mock.data.assignmentsOf(target.member.id)[0]!.id;
    h!.mock.data.setMemberStatus(target.member.id, 'LOA');
    h!.mock.data.appendRawAudit({
      uuid: 'e2c1',
      verb: 'MEMBER_LEAVE_STARTED',
      payload: { subjects: [{ kind: 'assignment', ref: assignmentId }], note: null },
    });
    await eventually(() => updated.some(([src, m]) => src === target.id && m.status === 'LOA'), 8000);
    expect(updated).toHaveLength(1);
  });

  it('a renamed rank reloads departments and ranks and reaches the players who hold it', async () => {
    const { players, updated } = await online(3);
    const holder = players[0]!;
    const rankId = h!.mock.data.assignmentsOf(holder.member.id)[0]!.rankId!;
    const mark = h!.mock.counters.log.length;
    h!.mock.dashboard.renameRank(rankId, 'Renamed Rank');
    await eventually(
      () =>
        updated.some(
          ([src, m]) => src === holder.id && m.departments.some((d) => d.rank?.name === 'Renamed Rank'),
        ),
      8000,
    );
    const endpoints = otherRequests(mark).map((e) => e.endpoint);
    expect(endpoints.sort()).toEqual(['GET /api/v1/departments', 'GET /api/v1/ranks']);
  });

  it('a member who left, then was suspended in the dashboard, is refused at their next join', async () => {
    const { players } = await online(1);
    const [player] = players;
    const { member } = player!;
    h!.server.dropPlayer(player!.id);
    const mark = h!.mock.counters.log.length;
    h!.mock.dashboard.setStatus(member.id, 'SUSPENDED');

    // The audit read that lists the change re-reads the member who is not online: one members
    // request naming their license, in the same pass (at most the read in flight, then the next).
    const reread = await eventually(() => {
      const at = h!.mock.counters.log
        .slice(mark)
        .findIndex(
          (e) =>
            e.endpoint === 'GET /api/v1/members' &&
            new URLSearchParams(e.query).getAll('gameLicense').includes(member.gameLicense),
        );
      return at >= 0 ? at : undefined;
    }, 8000);
    const readsBefore = h!.mock.counters.log.slice(mark, mark + reread).filter((e) => e.endpoint === AUDIT);
    expect(readsBefore.length).toBeLessThanOrEqual(2);
    // Audit reads never overlap: one more read after the re-read means its pass is done.
    await auditReads(mark + reread, 1);

    const asked = h!.mock.counters.log.length;
    const again = await h!.server.connectPlayer({
      name: member.displayName,
      identifiers: [member.gameLicense],
    }).decision;
    expect(!again.admitted && again.reason).toMatch(/status is SUSPENDED/);
    // Decided from the record the feed read: the join itself asked nothing.
    expect(otherRequests(asked)).toEqual([]);
  });

  for (const skewMs of [10 * 60_000, -10 * 60_000]) {
    it(`with the service's clock 10 minutes ${skewMs > 0 ? 'ahead' : 'behind'}, each change reaches its player once`, async () => {
      const { players, updated } = await online(2, { mockNow: () => Date.now() + skewMs });
      await auditReads(h!.mock.counters.log.length, 1);
      const mark = h!.mock.counters.log.length;
      const [first, second] = players as [Online, Online];
      h!.mock.dashboard.setStatus(first.member.id, 'LOA');
      await eventually(() => updated.some(([src]) => src === first.id), 8000);
      h!.mock.dashboard.setStatus(second.member.id, 'INACTIVE');
      await eventually(() => updated.some(([src]) => src === second.id), 8000);
      // Read again and again: neither change is handled a second time.
      await auditReads(h!.mock.counters.log.length, 3);
      expect(updated.map(([src, m]) => [src, m.status])).toEqual([
        [first.id, 'LOA'],
        [second.id, 'INACTIVE'],
      ]);
      const named = otherRequests(mark)
        .filter((e) => e.endpoint === 'GET /api/v1/members')
        .flatMap((e) => new URLSearchParams(e.query).getAll('gameLicense'));
      expect(named.sort()).toEqual([first.member.gameLicense, second.member.gameLicense].sort());
      // Stamps are judged on the service's clock (its Date header): none of its own is ahead of it.
      expect(h!.logText()).not.toContain('ahead of the service');
    });
  }

  it('a burst of 2,500 entries is read through: a change named near its end still reaches its member', async () => {
    const { players, updated } = await online(2, {
      // The audit reads of a burst, one a second, must not wait for the mock key's minute.
      beforeStart: (mock) => {
        mock.keyRecords.find((k) => k.name === 'full')!.perMinute = 100_000;
      },
    });
    const [online1, away] = players as [Online, Online];
    h!.server.dropPlayer(away.id);
    await auditReads(h!.mock.counters.log.length, 1);
    // Changes the burst's entries announce, far past the first read's 2,000 entries.
    h!.mock.data.setMemberStatus(online1.member.id, 'LOA');
    h!.mock.data.setMemberStatus(away.member.id, 'SUSPENDED');
    const assignment = h!.mock.data.assignmentsOf(online1.member.id)[0]!.id;
    const firstOfBurst = h!.mock.data.data.auditLogs.length;
    h!.mock.data.appendAuditBurst(2_500, (i) =>
      i === 2_200
        ? { resourceType: 'member', resourceId: away.member.id }
        : i === 2_450
          ? { changes: { assignment: { id: assignment } } }
          : { resourceType: 'member', resourceId: `mem_gone_${i}` },
    );
    await eventually(() => updated.some(([src, m]) => src === online1.id && m.status === 'LOA'), 15_000);
    const mark = h!.mock.counters.log.length;
    await auditReads(mark, 1);
    const again = await h!.server.connectPlayer({
      name: away.member.displayName,
      identifiers: [away.member.gameLicense],
    }).decision;
    expect(!again.admitted && again.reason).toMatch(/status is SUSPENDED/);
    expect(h!.logText()).not.toContain('could not be read in full');
    // Reads moved on: one started past the first read's 2,000 entries instead of reading them again.
    const deep = Date.parse(h!.mock.data.data.auditLogs[firstOfBurst + 1_500]!.createdAt);
    const starts = h!.mock.counters.log
      .filter((e) => e.endpoint === AUDIT)
      .map((e) => Date.parse(new URLSearchParams(e.query).get('createdAt.after') ?? '1970-01-01'));
    expect(starts.some((start) => start >= deep)).toBe(true);
  });

  it('entries it cannot page past are a gap: said in one line, everyone online read again, the others at their next join', async () => {
    const { players, updated } = await online(2, {
      beforeStart: (mock) => {
        mock.keyRecords.find((k) => k.name === 'full')!.perMinute = 100_000;
      },
    });
    const [stayed, away] = players as [Online, Online];
    h!.server.dropPlayer(away.id);
    await auditReads(h!.mock.counters.log.length, 1);
    // Changes nothing announces that the feed can read: more entries with one stamp than a read holds.
    h!.mock.data.setMemberStatus(stayed.member.id, 'LOA');
    h!.mock.data.setMemberStatus(away.member.id, 'SUSPENDED');
    const stamp = new Date().toISOString();
    for (let i = 0; i < 2_100; i++) h!.mock.data.appendRawAudit({ id: `same-${i}`, createdAt: stamp });
    await eventually(() => updated.some(([src, m]) => src === stayed.id && m.status === 'LOA'), 15_000);
    await eventually(() => h!.logText().includes('could not be read in full'), 8000);
    const again = await h!.server.connectPlayer({
      name: away.member.displayName,
      identifiers: [away.member.gameLicense],
    }).decision;
    expect(!again.admitted && again.reason).toMatch(/status is SUSPENDED/);
    // Read on for a while: the same entries are not a gap again.
    await auditReads(h!.mock.counters.log.length, 5);
    expect(h!.logText().match(/could not be read in full/g)).toHaveLength(1);
    // The doctor tells the feed as it runs: reading, and the gap.
    const before = h!.server.log.lines.length;
    h!.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = h!.server.log.lines.slice(before).join('\n');
      return /audit feed: 1 gap since start/.test(text) ? text : undefined;
    }, 8000);
    expect(doctor).toMatch(/✓ audit feed: reading; it reached the end of the audit log \d+ s ago/);
    expect(doctor).toMatch(/1 gap since start, the last \d+ s ago \(more than 2000 entries stamped/);
  });

  it('a deeply nested entry is skipped with one warning naming it; the entries after it still reach their players', async () => {
    const { players, updated } = await online(2);
    const [first, second] = players as [Online, Online];
    // As deep as the service can still write out (V8 writes JSON recursively).
    let deep: unknown = { memberId: first.member.id };
    for (let i = 0; i < 1_000; i++) deep = { next: deep };
    h!.mock.data.appendRawAudit({ id: 'aud_deep', payload: deep });
    h!.mock.data.setMemberStatus(second.member.id, 'LOA');
    h!.mock.data.appendRawAudit({ id: 'aud_after', subject: second.member.id });
    await eventually(() => updated.some(([src, m]) => src === second.id && m.status === 'LOA'), 8000);
    await auditReads(h!.mock.counters.log.length, 3);
    const warned = h!
      .logText()
      .split('\n')
      .filter((line) => line.includes('aud_deep'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/nested deeper than/);
  });

  it('dashboard changes reach their players whatever shape their entries take', async () => {
    const { players, updated } = await online(5);
    const mark = h!.mock.counters.log.length;
    const shapes: string[] = [];
    for (const player of players) {
      h!.mock.dashboard.setStatus(player.member.id, 'LOA');
      shapes.push(h!.mock.dashboard.last!.shape);
    }
    // Five changes in a row take the five shapes the mock writes.
    expect(new Set(shapes).size).toBe(5);
    await eventually(
      () => players.every((p) => updated.some(([src, m]) => src === p.id && m.status === 'LOA')),
      8000,
    );
    expect(updated).toHaveLength(5);
    // All five in one batch.
    expect(otherRequests(mark).filter((e) => e.endpoint === 'GET /api/v1/members')).toHaveLength(1);
  });

  it('without audit:read the audit log is never read', async () => {
    const { players } = await online(2, { keyName: 'rosterWrite' });
    await eventually(() => h!.logText().includes('connected to the roster'));
    // Three audit intervals of server frames: a feed would have read the log by then.
    const from = h!.server.frames;
    await eventually(() => h!.server.frames >= from + framesIn(3), 10_000);
    expect(h!.mock.counters.byEndpoint()[AUDIT]).toBeUndefined();
    expect(h!.logText()).toContain('lacks audit:read');
    expect(players).toHaveLength(2);
  });
});
