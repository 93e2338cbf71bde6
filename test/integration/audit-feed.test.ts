/**
 * CONTRACT section 10, changes made on the roster reach online players: the audit log read as a
 * change feed, from the built bundle against the mock roster over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockMember } from '../../dev/mock-roster/records';
import { eventually, type Harness, type HarnessOptions, startHarness } from './harness';

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
    // Reads are sorted by createdAt and start from the last entry seen.
    const read = new URLSearchParams(h!.mock.counters.log.findLast((e) => e.endpoint === AUDIT)!.query);
    expect(read.get('sort')).toBe('createdAt');
    expect(Date.parse(read.get('createdAt.after')!)).toBeGreaterThan(Date.now() - 10 * 60_000);

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

  it('without audit:read the audit log is never read', async () => {
    const { players } = await online(2, { keyName: 'rosterWrite' });
    await eventually(() => h!.logText().includes('connected to the roster'));
    await new Promise((r) => setTimeout(r, 2500));
    expect(h!.mock.counters.byEndpoint()[AUDIT]).toBeUndefined();
    expect(h!.logText()).toContain('lacks audit:read');
    expect(players).toHaveLength(2);
  });
});
