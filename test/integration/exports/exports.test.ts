/**
 * The roster exports, called by a JS resource through the real export path (event,
 * funcrefs, msgpack) against the built bundle and the mock roster service over loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptResource } from '../../../dev/emulator';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, expectedMember, type Harness, startHarness, strangerLicense } from '../harness';

type Fn = (...args: unknown[]) => unknown;

/** A copy made in this realm (export answers are built in the caller's realm). */
const plain = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

function sortedDepartments<T extends { departments: { id: string }[] }>(member: T): T {
  return { ...member, departments: [...member.departments].sort((a, b) => a.id.localeCompare(b.id)) };
}

interface Joined {
  id: number;
  member: MockMember;
}

/** Records every roster event the caller sees. */
function recordEvents(caller: ScriptResource) {
  const loaded: [unknown, unknown][] = [];
  const updated: [unknown, unknown, unknown][] = [];
  caller.on('roster:playerLoaded', (src, member) => loaded.push([src, plain(member)]));
  caller.on('roster:playerUpdated', (src, member, previous) =>
    updated.push([src, plain(member), plain(previous)]),
  );
  return { loaded, updated };
}

async function join(h: Harness, loaded: [unknown, unknown][], member: MockMember, name = 'Player') {
  const connection = h.server.connectPlayer({ name, identifiers: [member.gameLicense, 'ip:127.0.0.1'] });
  const decision = await connection.decision;
  if (!decision.admitted) throw new Error(`${member.id} was refused: ${decision.reason}`);
  const id = decision.id;
  await eventually(() => loaded.some(([src]) => src === id));
  return { id, member };
}

function stateBag(h: Harness, id: number | string): unknown {
  return plain(h.caller.eval(`Player(${JSON.stringify(String(id))}).state.roster`));
}

/** No export threw inside the resource (the wrapper would log) and nothing crossed as a SCRIPT ERROR. */
function expectNoExportFailures(h: Harness) {
  const text = h.logText();
  expect(text).not.toMatch(/SCRIPT ERROR/);
  expect(text).not.toMatch(/export \w+ failed/);
}

/** An ACTIVE member with exactly one ranked assignment in a department that has a short name. */
function singleDepartmentMember(h: Harness): MockMember {
  const found = h.mock.data.members.find((m) => {
    const assignments = h.mock.data.assignmentsOf(m.id);
    return m.status === 'ACTIVE' && assignments.length === 1 && assignments[0]!.rankId !== null;
  });
  if (!found) throw new Error('no single-department member');
  return found;
}

const caseVariants = (s: string) => [s, s.toLowerCase(), s.toUpperCase()];

/** A huge string (big enough to matter, small enough to keep msgpack fast). */
const HUGE = 'x'.repeat(200_000);

/**
 * The harness with a roomier rate limit (key and config), so the resource's even spreading of
 * 120 requests a minute does not make each fresh lookup wait half a second per request.
 */
async function start(config: Record<string, unknown> = {}): Promise<Harness> {
  const h = await startHarness({
    config: { rateLimit: { perMinute: 6000 }, ...config },
    beforeStart: (mock) => {
      for (const key of mock.keyRecords) key.perMinute = 6000;
    },
  });
  await eventually(() => h.logText().includes('connected to the roster'));
  return h;
}

describe('exports from a JS caller, for joined members', () => {
  let h: Harness;
  let roster: Record<string, Fn>;
  let events: ReturnType<typeof recordEvents>;
  let several: Joined;
  let single: Joined;

  beforeAll(async () => {
    h = await start();
    events = recordEvents(h.caller);
    roster = h.caller.exports.roster!;
    several = await join(h, events.loaded, h.mock.data.memberWithSeveralDepartments(), 'Several');
    single = await join(h, events.loaded, singleDepartmentMember(h), 'Single');
  });
  afterAll(async () => h?.close());

  const srcForms = (j: Joined) => [j.id, String(j.id)];

  it('getMember answers the mock member with its departments and ranks, by number or numeric string', () => {
    expect(h.mock.data.assignmentsOf(several.member.id).length).toBeGreaterThanOrEqual(2);
    for (const j of [several, single]) {
      for (const src of srcForms(j)) {
        const member = plain(roster.getMember!(src)) as ReturnType<typeof expectedMember>;
        expect(sortedDepartments(member)).toMatchObject(expectedMember(h, j.member));
        expect(member.departments.filter((d) => d.primary)).toHaveLength(1);
      }
    }
  });

  it('isOnRoster is true for ACTIVE joined members', () => {
    for (const j of [several, single])
      for (const src of srcForms(j)) expect(roster.isOnRoster!(src)).toBe(true);
  });

  it('getDepartments lists every department of the member', () => {
    for (const j of [several, single]) {
      for (const src of srcForms(j)) {
        const departments = plain(roster.getDepartments!(src)) as { id: string }[];
        expect(sortedDepartments({ departments })).toMatchObject({
          departments: expectedMember(h, j.member).departments,
        });
      }
    }
  });

  it('isInDepartment matches id, name and short name in any case, and nothing else', () => {
    const held = expectedMember(h, several.member).departments;
    for (const src of srcForms(several)) {
      for (const d of held) {
        for (const k of [d.id, d.name, d.shortName].flatMap(caseVariants)) {
          expect(roster.isInDepartment!(src, k), k).toBe(true);
        }
      }
      const others = h.mock.data.data.departments.filter((d) => !held.some((x) => x.id === d.id));
      expect(others.length).toBeGreaterThan(0);
      for (const d of others) {
        for (const k of [d.id, d.name, d.shortName]) expect(roster.isInDepartment!(src, k), k).toBe(false);
      }
      expect(roster.isInDepartment!(src, 'No Such Department')).toBe(false);
      expect(roster.isInDepartment!(src, 'dept_nope')).toBe(false);
    }
  });

  it('getRank without a department gives the primary department rank; with one, that department rank', () => {
    for (const j of [several, single]) {
      const departments = expectedMember(h, j.member).departments;
      const primary = departments.find((d) => d.primary)!;
      for (const src of srcForms(j)) {
        expect(plain(roster.getRank!(src))).toEqual(primary.rank);
        expect(plain(roster.getRank!(src, undefined))).toEqual(primary.rank);
        expect(plain(roster.getRank!(src, null))).toEqual(primary.rank);
        for (const d of departments) {
          for (const k of [d.id, d.name, d.shortName].flatMap(caseVariants)) {
            expect(plain(roster.getRank!(src, k)), k).toEqual(d.rank);
          }
        }
        const notHeld = h.mock.data.data.departments.find((d) => !departments.some((x) => x.id === d.id))!;
        expect(roster.getRank!(src, notHeld.shortName)).toBeNull();
        expect(roster.getRank!(src, 'No Such Department')).toBeNull();
      }
    }
    // The primary is not simply the first department: several's secondary ranks differ.
    const ranks = expectedMember(h, several.member).departments.map((d) => d.rank?.id);
    expect(new Set(ranks).size).toBeGreaterThan(1);
  });

  it('hasRank is true for exactly the held rank (id or name, any case) in that department', () => {
    for (const j of [several, single]) {
      for (const d of expectedMember(h, j.member).departments) {
        if (!d.rank) continue;
        const ladder = h.mock.data.data.ranks.filter((r) => r.departmentId === d.id);
        for (const src of srcForms(j)) {
          for (const dk of [d.id, d.shortName.toLowerCase(), d.name.toUpperCase()]) {
            for (const rk of [...caseVariants(d.rank.name), ...caseVariants(d.rank.id)]) {
              expect(roster.hasRank!(src, dk, rk), `${dk} ${rk}`).toBe(true);
            }
            for (const other of ladder.filter((r) => r.id !== d.rank!.id)) {
              expect(roster.hasRank!(src, dk, other.name), `${dk} ${other.name}`).toBe(false);
              expect(roster.hasRank!(src, dk, other.id), `${dk} ${other.id}`).toBe(false);
            }
            expect(roster.hasRank!(src, dk, 'No Such Rank')).toBe(false);
          }
        }
      }
    }
  });

  it('hasRank does not take a rank of the same name from another department', () => {
    // single holds exactly one department: ask for its rank name in every other department.
    const d = expectedMember(h, single.member).departments[0]!;
    for (const other of h.mock.data.data.departments.filter((x) => x.id !== d.id)) {
      expect(roster.hasRank!(single.id, other.shortName, d.rank!.name)).toBe(false);
      expect(roster.hasMinRank!(single.id, other.shortName, d.rank!.name)).toBe(false);
    }
  });

  it('hasMinRank follows the rank ladder: same or less senior passes, more senior fails (1 = most senior)', () => {
    let checked = 0;
    for (const j of [several, single]) {
      for (const d of expectedMember(h, j.member).departments) {
        if (!d.rank) continue;
        const ladder = h.mock.data.data.ranks.filter((r) => r.departmentId === d.id);
        expect(ladder.length).toBeGreaterThan(1);
        for (const src of srcForms(j)) {
          for (const target of ladder) {
            // Holding position p satisfies "at least target" when p <= target.position.
            const expected = d.rank.position <= target.position;
            for (const rk of [target.name, target.name.toUpperCase(), target.id, target.id.toUpperCase()]) {
              expect(roster.hasMinRank!(src, d.shortName, rk), `${d.shortName} ${d.rank.name} >= ${rk}`).toBe(
                expected,
              );
              checked++;
            }
          }
          const top = ladder.reduce((a, b) => (a.position < b.position ? a : b));
          const bottom = ladder.reduce((a, b) => (a.position > b.position ? a : b));
          expect(roster.hasMinRank!(src, d.id, bottom.name)).toBe(true);
          expect(roster.hasMinRank!(src, d.name, top.name)).toBe(d.rank.position === top.position);
          expect(roster.hasMinRank!(src, d.shortName, 'No Such Rank')).toBe(false);
          expect(roster.hasMinRank!(src, 'No Such Department', bottom.name)).toBe(false);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('hasMinRank along an LSPD rank ladder', () => {
    const lspd = expectedMember(h, several.member).departments.find((d) => d.shortName === 'LSPD');
    if (!lspd?.rank) return; // seeded member 0 is LSPD primary; guard for other seeds
    const sergeant = h.mock.data.rankByName('LSPD', 'Sergeant');
    expect(roster.hasMinRank!(several.id, 'LSPD', 'Sergeant')).toBe(lspd.rank.position <= sergeant.position);
    expect(roster.hasMinRank!(several.id, 'lspd', 'cadet')).toBe(true);
    expect(roster.hasMinRank!(several.id, 'LSPD', 'Chief')).toBe(lspd.rank.position === 1);
  });

  it('lookupLicense answers a member (cache first or fresh), null for a stranger and for malformed input', async () => {
    const expected = expectedMember(h, several.member);
    expect(
      sortedDepartments(plain((await roster.lookupLicense!(several.member.gameLicense)) as typeof expected)),
    ).toMatchObject(expected);
    expect(
      sortedDepartments(
        plain(
          (await roster.lookupLicense!(
            several.member.gameLicense.toUpperCase().replace('LICENSE:', 'license:'),
          )) as typeof expected,
        ),
      ),
    ).toMatchObject(expected);
    // A member who is not online: fetched from the service.
    const offline = h.mock.data.members.find(
      (m) => m.id !== several.member.id && m.id !== single.member.id && m.status === 'ACTIVE',
    )!;
    expect(
      sortedDepartments(plain((await roster.lookupLicense!(offline.gameLicense)) as typeof expected)),
    ).toMatchObject(expectedMember(h, offline));
    // A suspended member is still a member: lookupLicense does not gate.
    const suspended = h.mock.data.suspendedMember();
    expect(plain((await roster.lookupLicense!(suspended.gameLicense)) as { status: string })).toMatchObject({
      id: suspended.id,
      status: 'SUSPENDED',
      license: suspended.gameLicense,
    });
    expect(await roster.lookupLicense!(strangerLicense)).toBeNull();
    expect(await roster.lookupLicense!(h.mock.data.nonMemberLicense(3))).toBeNull();
    for (const bad of [
      '',
      'license:',
      'license:xyz',
      `license:${'a'.repeat(39)}`,
      `license:${'a'.repeat(41)}`,
      `license2:${'a'.repeat(40)}`,
      `steam:${'1'.repeat(15)}`,
      several.member.gameLicense.slice('license:'.length),
      `license:${'g'.repeat(40)}`,
      HUGE,
    ]) {
      expect(await roster.lookupLicense!(bad), bad.slice(0, 60)).toBeNull();
    }
    expectNoExportFailures(h);
  });

  it('refreshPlayer answers the fresh member (number or numeric string) and fires nothing when unchanged', async () => {
    const before = events.updated.length;
    for (const src of srcForms(several)) {
      const fresh = plain((await roster.refreshPlayer!(src)) as ReturnType<typeof expectedMember>);
      expect(sortedDepartments(fresh)).toMatchObject(expectedMember(h, several.member));
    }
    expect(events.updated.length).toBe(before);
  });

  describe('bad arguments give the documented empty answer, never a throw', () => {
    const badSources: unknown[] = [
      99,
      '99',
      65535,
      0,
      '0',
      -1,
      '-1',
      1.5,
      '1.5',
      ' 1',
      '1 ',
      '01',
      '1e0',
      '0x1',
      'abc',
      '',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      1e21,
      -0,
      '9'.repeat(11),
      HUGE,
      true,
      false,
      null,
      undefined,
      {},
      [],
      [1],
      { src: 1 },
      { 1: 1 },
      new Uint8Array([1]).buffer,
      () => 1,
    ];
    const label = (v: unknown) =>
      typeof v === 'string' ? JSON.stringify(v.slice(0, 20)) : typeof v === 'function' ? 'fn' : String(v);

    it.each(badSources.map((s) => [label(s), s]))('src %s', async (_label, src) => {
      expect(roster.getMember!(src)).toBeNull();
      expect(roster.isOnRoster!(src)).toBe(false);
      expect(plain(roster.getDepartments!(src))).toEqual([]);
      expect(roster.isInDepartment!(src, 'LSPD')).toBe(false);
      expect(roster.getRank!(src)).toBeNull();
      expect(roster.getRank!(src, 'LSPD')).toBeNull();
      expect(roster.hasRank!(src, 'LSPD', 'Officer')).toBe(false);
      expect(roster.hasMinRank!(src, 'LSPD', 'Cadet')).toBe(false);
      expect(await roster.refreshPlayer!(src)).toBeNull();
      expect(await roster.lookupLicense!(src)).toBeNull();
      expectNoExportFailures(h);
    });

    it('no arguments at all', async () => {
      for (const name of ['getMember', 'getRank']) expect(roster[name]!()).toBeNull();
      for (const name of ['isOnRoster', 'isInDepartment', 'hasRank', 'hasMinRank'])
        expect(roster[name]!()).toBe(false);
      expect(plain(roster.getDepartments!())).toEqual([]);
      expect(await roster.lookupLicense!()).toBeNull();
      expect(await roster.refreshPlayer!()).toBeNull();
      expectNoExportFailures(h);
    });

    const badKeys: unknown[] = [
      undefined,
      null,
      '',
      '   ',
      'No Such Department',
      HUGE,
      0,
      -1,
      1.5,
      Number.NaN,
      true,
      false,
      {},
      [],
      ['LSPD'],
      { id: 'dept_lspd' },
      { shortName: 'LSPD' },
      () => 'LSPD',
    ];

    it.each(badKeys.map((k) => [label(k), k]))('department %s for a joined member', (_label, dept) => {
      const [d] = expectedMember(h, several.member).departments;
      const src = several.id;
      expect(roster.isInDepartment!(src, dept)).toBe(false);
      if (dept !== undefined && dept !== null) expect(roster.getRank!(src, dept)).toBeNull();
      expect(roster.hasRank!(src, dept, d!.rank!.name)).toBe(false);
      expect(roster.hasMinRank!(src, dept, d!.rank!.name)).toBe(false);
      // A bad department does not fall back to anything.
      expect(roster.isInDepartment!(String(src), dept)).toBe(false);
      expectNoExportFailures(h);
    });

    it.each(badKeys.map((k) => [label(k), k]))('rank %s for a joined member', (_label, rank) => {
      const d = expectedMember(h, several.member).departments.find((x) => x.rank)!;
      expect(roster.hasRank!(several.id, d.shortName, rank)).toBe(false);
      expect(roster.hasMinRank!(several.id, d.shortName, rank)).toBe(false);
      expectNoExportFailures(h);
    });

    it('a rank given as its position number is not a rank name or id', () => {
      const d = expectedMember(h, several.member).departments.find((x) => x.rank)!;
      expect(roster.hasRank!(several.id, d.shortName, d.rank!.position)).toBe(false);
    });
  });
});

describe('events, state bag and refreshPlayer against changes in the roster', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('roster:playerLoaded fires exactly once per joined player with (number, Member) and sets the state bag', async () => {
    h = await start();
    const events = recordEvents(h.caller);
    const members = [
      h.mock.data.memberWithSeveralDepartments(),
      singleDepartmentMember(h),
      h.mock.data.members.find((m, i) => i > 10 && m.status === 'ACTIVE')!,
    ];
    const joined = await Promise.all(members.map((m, i) => join(h, events.loaded, m, `P${i}`)));
    expect(new Set(joined.map((j) => j.id)).size).toBe(3);
    // Let a few ticks pass so a duplicate would show.
    for (let i = 0; i < 20; i++) await h.server.nextTick();
    expect(events.loaded).toHaveLength(3);
    for (const j of joined) {
      const mine = events.loaded.filter(([src]) => src === j.id);
      expect(mine).toHaveLength(1);
      const [src, member] = mine[0]!;
      expect(typeof src).toBe('number');
      const expected = expectedMember(h, j.member);
      expect(sortedDepartments(member as typeof expected)).toMatchObject(expected);
      const bag = stateBag(h, j.id) as Record<string, unknown>;
      expect(bag).not.toBeNull();
      expect(bag).not.toHaveProperty('license');
      const { license: _license, ...withoutLicense } = expected;
      expect(sortedDepartments(bag as typeof withoutLicense)).toMatchObject(withoutLicense);
      expect(JSON.stringify(bag)).not.toContain(j.member.gameLicense.slice('license:'.length));
      const writes = h.server.bags.writes.filter((w) => w.bag === `player:${j.id}` && w.key === 'roster');
      expect(writes.length).toBeGreaterThan(0);
      expect(writes.every((w) => w.replicated)).toBe(true);
    }
    expect(events.updated).toHaveLength(0);
  });

  it('a player the gate lets through without roster data loads as null (gate off, stranger)', async () => {
    h = await start({ gate: { enabled: false } });
    const events = recordEvents(h.caller);
    const connection = h.server.connectPlayer({ name: 'Stranger', identifiers: [strangerLicense] });
    const decision = await connection.decision;
    expect(decision.admitted).toBe(true);
    const id = (decision as { id: number }).id;
    await eventually(() => events.loaded.length > 0);
    for (let i = 0; i < 10; i++) await h.server.nextTick();
    expect(events.loaded).toEqual([[id, null]]);
    expect(stateBag(h, id)).toBeNull();
    const roster = h.caller.exports.roster!;
    expect(roster.getMember!(id)).toBeNull();
    expect(roster.isOnRoster!(id)).toBe(false);
    expect(plain(roster.getDepartments!(id))).toEqual([]);
    expect(roster.getRank!(id)).toBeNull();
    expect(await roster.refreshPlayer!(id)).toBeNull();
  });

  it('refreshPlayer after a rank change fires roster:playerUpdated with member and previous and updates the bag', async () => {
    h = await start();
    const events = recordEvents(h.caller);
    const roster = h.caller.exports.roster!;
    const j = await join(h, events.loaded, h.mock.data.memberWithSeveralDepartments());
    const before = expectedMember(h, j.member);
    const primary = before.departments.find((d) => d.primary)!;
    const ladder = h.mock.data.data.ranks.filter((r) => r.departmentId === primary.id);
    const promotion =
      ladder.find((r) => r.position === primary.rank!.position - 1) ??
      ladder.find((r) => r.id !== primary.rank!.id)!;
    h.mock.data.setMemberRank(j.member.id, promotion.id);
    const after = expectedMember(h, j.member);

    // Still the old rank in memory until refreshed.
    expect(plain(roster.getRank!(j.id))).toEqual(primary.rank);
    const fresh = plain((await roster.refreshPlayer!(String(j.id))) as typeof after);
    expect(sortedDepartments(fresh)).toMatchObject(after);
    await eventually(() => events.updated.length > 0);
    expect(events.updated).toHaveLength(1);
    const [src, member, previous] = events.updated[0]!;
    expect(src).toBe(j.id);
    expect(sortedDepartments(member as typeof after)).toMatchObject(after);
    expect(sortedDepartments(previous as typeof before)).toMatchObject(before);

    expect(plain(roster.getRank!(j.id))).toEqual({
      id: promotion.id,
      name: promotion.name,
      position: promotion.position,
    });
    expect(roster.hasRank!(j.id, primary.shortName, promotion.name)).toBe(true);
    expect(roster.hasRank!(j.id, primary.shortName, primary.rank!.name)).toBe(false);
    expect(roster.hasMinRank!(j.id, primary.shortName, promotion.name)).toBe(true);

    const bag = stateBag(h, j.id) as typeof after;
    expect(bag).not.toHaveProperty('license');
    const { license: _license, ...withoutLicense } = after;
    expect(sortedDepartments(bag)).toMatchObject(withoutLicense);

    // Refreshing again with no change fires nothing more.
    await roster.refreshPlayer!(j.id);
    for (let i = 0; i < 5; i++) await h.server.nextTick();
    expect(events.updated).toHaveLength(1);
    expect(events.loaded).toHaveLength(1);
  });

  it('refreshPlayer after a status change and after removal from the roster', async () => {
    h = await start();
    const events = recordEvents(h.caller);
    const roster = h.caller.exports.roster!;
    const j = await join(h, events.loaded, singleDepartmentMember(h));
    const active = expectedMember(h, j.member);

    h.mock.data.setMemberStatus(j.member.id, 'SUSPENDED');
    expect(plain((await roster.refreshPlayer!(j.id)) as { status: string }).status).toBe('SUSPENDED');
    expect(roster.isOnRoster!(j.id)).toBe(false);
    expect(plain(roster.getMember!(j.id) as { status: string }).status).toBe('SUSPENDED');
    expect(events.updated).toHaveLength(1);
    expect(events.updated[0]![0]).toBe(j.id);
    expect((events.updated[0]![1] as { status: string }).status).toBe('SUSPENDED');
    expect((events.updated[0]![2] as { status: string }).status).toBe('ACTIVE');
    expect((stateBag(h, j.id) as { status: string }).status).toBe('SUSPENDED');

    h.mock.data.removeMember(j.member.id);
    expect(await roster.refreshPlayer!(j.id)).toBeNull();
    expect(events.updated).toHaveLength(2);
    const [src, member, previous] = events.updated[1]!;
    expect(src).toBe(j.id);
    expect(member).toBeNull();
    expect(previous).toMatchObject({ id: active.id, status: 'SUSPENDED' });
    expect(roster.getMember!(j.id)).toBeNull();
    expect(roster.isOnRoster!(j.id)).toBe(false);
    expect(plain(roster.getDepartments!(j.id))).toEqual([]);
    expect(roster.getRank!(j.id)).toBeNull();
    expect(stateBag(h, j.id)).toBeNull();
    expectNoExportFailures(h);
  });

  it('a department whose rank was taken away: still in it, but no rank passes', async () => {
    h = await start();
    const events = recordEvents(h.caller);
    const roster = h.caller.exports.roster!;
    const j = await join(h, events.loaded, h.mock.data.memberWithSeveralDepartments());
    const assignment = h.mock.data.assignmentsOf(j.member.id).find((a) => a.isPrimary)!;
    const department = h.mock.data.data.departments.find((d) => d.id === assignment.departmentId)!;
    const ladder = h.mock.data.data.ranks.filter((r) => r.departmentId === department.id);
    const bottom = ladder.reduce((a, b) => (a.position > b.position ? a : b));
    h.mock.data.setAssignmentRank(assignment.id, null);
    const fresh = plain((await roster.refreshPlayer!(j.id)) as ReturnType<typeof expectedMember>);
    expect(fresh.departments.find((d) => d.id === department.id)).toMatchObject({
      primary: true,
      rank: null,
    });
    expect(events.updated).toHaveLength(1);
    expect(roster.isInDepartment!(j.id, department.shortName)).toBe(true);
    expect(roster.getRank!(j.id)).toBeNull();
    expect(roster.getRank!(j.id, department.shortName)).toBeNull();
    for (const r of ladder) expect(roster.hasRank!(j.id, department.shortName, r.name)).toBe(false);
    expect(roster.hasMinRank!(j.id, department.shortName, bottom.name)).toBe(false);
    expect(roster.hasMinRank!(j.id, department.id, bottom.id)).toBe(false);
    expectNoExportFailures(h);
  });

  it('a dropped player is no longer answered for', async () => {
    h = await start();
    const events = recordEvents(h.caller);
    const roster = h.caller.exports.roster!;
    const j = await join(h, events.loaded, singleDepartmentMember(h));
    expect(roster.isOnRoster!(j.id)).toBe(true);
    h.server.dropPlayer(j.id);
    await h.server.nextTick();
    expect(roster.getMember!(j.id)).toBeNull();
    expect(roster.isOnRoster!(j.id)).toBe(false);
    expect(plain(roster.getDepartments!(j.id))).toEqual([]);
    expect(roster.getRank!(j.id)).toBeNull();
    expect(await roster.refreshPlayer!(j.id)).toBeNull();
    expect(events.updated).toHaveLength(0);
  });

  it('the temporary id of a connection the gate refused is not a player', async () => {
    h = await start();
    const roster = h.caller.exports.roster!;
    const suspended = h.mock.data.suspendedMember();
    const connection = h.server.connectPlayer({ name: 'Suspended', identifiers: [suspended.gameLicense] });
    const decision = await connection.decision;
    expect(decision.admitted).toBe(false);
    const tempId = connection.tempId;
    expect(tempId).toBeGreaterThanOrEqual(0x10000);
    expect(h.server.playerList().some((p) => p.id === tempId)).toBe(false);
    expect(roster.getMember!(tempId)).toBeNull();
    expect(roster.isOnRoster!(tempId)).toBe(false);
    expect(plain(roster.getDepartments!(tempId))).toEqual([]);
    expect(roster.isInDepartment!(tempId, expectedMember(h, suspended).departments[0]!.id)).toBe(false);
    expect(roster.getRank!(tempId)).toBeNull();
    const before = h.mock.counters.total;
    expect(await roster.refreshPlayer!(tempId)).toBeNull();
    expect(h.mock.counters.total).toBe(before);
  });
});
