import { seededRandom } from '../mock-http/seeded-random';
import { DEPARTMENT_TEMPLATES } from '../mock-roster/catalog';
import type { MockMember } from '../mock-roster/records';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { mirrorHolds, rosterReady, sleep, startGateServer } from './gate-servers';
import { runJoinStorm } from './join-storm';
import type { BenchPlayer } from './population';
import type { Progress } from './progress';
import { requestKind } from './request-log';
import { type ChangeKind, StaffChanges } from './staff-changes';
import { SERVICE_LATENCY_MS } from './storm-scenario';

/** `refresh.auditSeconds` here: short, so the wait after the read (one interval and a pass) is too. */
export const CHANGES_AUDIT_SECONDS = 15;
/** `gate.departments`: a transfer in or out of these changes the decision. */
const ALLOWED = ['LSPD', 'BCSO', 'SAHP'];
const ALLOWED_IDS = new Set(['dept_lspd', 'dept_bcso', 'dept_sahp']);
/** Where a member transferred out goes. */
const ELSEWHERE = 'dept_safr';
/** The departments not allowed on the server, which a member transferred in leaves. */
const NOT_ALLOWED = new Set(
  DEPARTMENT_TEMPLATES.map((d) => `dept_${d.key}`).filter((id) => !ALLOWED_IDS.has(id)),
);
const KINDS: readonly ChangeKind[] = [
  'suspension',
  'transfer out',
  'member deleted',
  'reinstatement',
  'transfer in',
];
const CHANGE_EVERY_MS = 1_000;

export interface FirstReadChangesResult {
  members: number;
  /** Changes made while the first read ran, by kind. */
  changes: Record<string, number>;
  /** Resource start → the mirror complete. */
  readMs: number;
  /** Waited after the read before the check: one audit interval and a pass. */
  waitedMs: number;
  /** Players connected for the check: every member, and the members deleted. */
  players: number;
  wrong: number;
  wrongAdmits: number;
  wrongRefusals: number;
  /** Wrong decisions by the change the player's member went through ("untouched": none). */
  wrongByChange: Record<string, number>;
  /** Requests the check cost (lookups of whoever the mirror does not hold). */
  checkRequests: number;
}

/**
 * Changes made in the dashboard while the mirror's first read runs: from its first page until it
 * completes, one a second, each to a member picked at random (read already or not yet): a
 * suspension, a transfer out of the departments allowed on the server (`gate.departments`), a
 * member deleted, a reinstatement, a transfer into them. Once the read is complete and one audit
 * interval and a pass have gone by, every member (and every member deleted) connects, and each
 * decision is checked against the service's data as it is then.
 */
export async function firstReadChanges(
  members = 2_000,
  progress?: Progress,
): Promise<FirstReadChangesResult> {
  const mock = await startMockRoster({ port: 0, members, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const startedAt = Date.now();
  const config = { refresh: { auditSeconds: CHANGES_AUDIT_SECONDS }, gate: { departments: ALLOWED } };
  const gate = await startGateServer('roster', mock, { config });
  try {
    await rosterReady(gate, mock);
    await firstPage(mock);
    const staff = new StaffChanges(mock);
    const random = seededRandom(27);
    const touched = new Map<string, ChangeKind>();
    const deleted: MockMember[] = [];
    for (let n = 0; mirrorHolds(gate.server) === null; n++) {
      if (Date.now() - startedAt > 600_000) throw new Error('the mirror did not complete its first read');
      const kind = KINDS[n % KINDS.length]!;
      const member = pick(mock, kind, touched, random);
      if (member) {
        CHANGE[kind](staff, member);
        touched.set(member.id, kind);
        if (kind === 'member deleted') deleted.push(member);
      }
      progress?.update(`changes during the first read: ${touched.size} made`);
      await sleep(CHANGE_EVERY_MS);
    }
    const readMs = Date.now() - startedAt;
    const waitedMs = 2 * CHANGES_AUDIT_SECONDS * 1000;
    progress?.update(`changes during the first read: read complete, waiting ${waitedMs / 1000} s…`);
    await sleep(waitedMs);
    const players = shuffled([
      ...mock.data.members.map((m) => ({
        name: m.displayName,
        license: m.gameLicense,
        shouldAdmit: admits(mock, m),
      })),
      ...deleted.map((m) => ({ name: m.displayName, license: m.gameLicense, shouldAdmit: false })),
    ]);
    const changeOf = new Map(
      [...touched].map(([id, kind]) => [
        (mock.data.member(id) ?? deleted.find((m) => m.id === id))!.gameLicense,
        kind,
      ]),
    );
    const mark = mock.counters.log.length;
    const { samples } = await runJoinStorm([gate.server], players, {
      spanMs: 20_000,
      onProgress: (decided, total) =>
        progress?.update(`changes during the first read: ${decided}/${total} checked`),
    });
    const wrong = samples.filter((s) => s.latencyMs === null || s.admitted !== s.player.shouldAdmit);
    const wrongByChange: Record<string, number> = {};
    for (const s of wrong) {
      const kind = changeOf.get(s.player.license) ?? 'untouched';
      wrongByChange[kind] = (wrongByChange[kind] ?? 0) + 1;
    }
    const changes: Record<string, number> = {};
    for (const kind of touched.values()) changes[kind] = (changes[kind] ?? 0) + 1;
    return {
      members,
      changes,
      readMs,
      waitedMs,
      players: samples.length,
      wrong: wrong.length,
      wrongAdmits: wrong.filter((s) => s.admitted).length,
      wrongRefusals: wrong.filter((s) => !s.admitted).length,
      wrongByChange,
      checkRequests: mock.counters.log.length - mark,
    };
  } finally {
    gate.close();
    await mock.close();
  }
}

/** Resolves once the mirror asked for its first page of a whole list. */
async function firstPage(mock: MockRoster): Promise<void> {
  const started = Date.now();
  while (!mock.counters.log.some((e) => requestKind(e).includes('(mirror full read)'))) {
    if (Date.now() - started > 60_000) throw new Error('the mirror did not begin its first read');
    await sleep(20);
  }
}

/** The service's decision now: ACTIVE and in a department allowed on the server. */
function admits(mock: MockRoster, member: MockMember): boolean {
  return (
    member.status === 'ACTIVE' &&
    mock.data.assignmentsOf(member.id).some((a) => ALLOWED_IDS.has(a.departmentId))
  );
}

/** A member not changed yet whose decision `kind` turns around; null when none is left. */
function pick(
  mock: MockRoster,
  kind: ChangeKind,
  touched: ReadonlyMap<string, ChangeKind>,
  random: () => number,
): MockMember | null {
  const allowed = (m: MockMember) =>
    mock.data.assignmentsOf(m.id).some((a) => ALLOWED_IDS.has(a.departmentId));
  const fits = (m: MockMember): boolean => {
    if (touched.has(m.id)) return false;
    switch (kind) {
      case 'reinstatement':
        return m.status === 'SUSPENDED' && allowed(m);
      case 'transfer in':
        return m.status === 'ACTIVE' && !allowed(m);
      default:
        return m.status === 'ACTIVE' && allowed(m);
    }
  };
  const list = mock.data.members;
  const from = Math.floor(random() * list.length);
  for (let i = 0; i < list.length; i++) {
    const member = list[(from + i) % list.length]!;
    if (fits(member)) return member;
  }
  return null;
}

/** What each kind of change does to the member picked for it. */
const CHANGE: Record<ChangeKind, (staff: StaffChanges, member: MockMember) => void> = {
  suspension: (staff, member) => staff.setStatus(member, 'SUSPENDED'),
  reinstatement: (staff, member) => staff.setStatus(member, 'ACTIVE'),
  'transfer out': (staff, member) => staff.transfer(member, ALLOWED_IDS, ELSEWHERE),
  'transfer in': (staff, member) => staff.transfer(member, NOT_ALLOWED, 'dept_lspd'),
  'member deleted': (staff, member) => staff.deleteMember(member),
};

function shuffled(players: BenchPlayer[]): BenchPlayer[] {
  const random = seededRandom(42);
  for (let i = players.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [players[i], players[j]] = [players[j]!, players[i]!];
  }
  return players;
}
