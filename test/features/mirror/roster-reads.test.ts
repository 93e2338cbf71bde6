import { describe, expect, it } from 'vitest';
import { RosterMirror } from '../../../src/features/mirror/roster-mirror';
import {
  type RosterReadDeps,
  readNewMembers,
  readWholeRoster,
} from '../../../src/features/mirror/roster-reads';
import { license, outcome, recordingLogger } from '../../roster/client/fake-roster';
import { FakeList, fakeLists, type ListedRecord, stamp } from './fake-list';

const MEMBERS = '/api/v1/members';
const ASSIGNMENTS = '/api/v1/department-assignments';

function member(i: number, createdAt = stamp(i * 1000)): ListedRecord {
  return { id: `m-${i}`, status: 'ACTIVE', gameLicense: license(i + 1), displayName: `M ${i}`, createdAt };
}

function assignment(i: number, departmentId: string, createdAt = stamp(i * 1000)): ListedRecord {
  return { id: `a-${i}-${departmentId}`, memberId: `m-${i}`, departmentId, rankId: null, createdAt };
}

/** A roster of `count` members, each in one department, the fake lists that serve it, and the read's deps. */
function roster(count: number, mirror = new RosterMirror(10_000, () => {})) {
  const members = new FakeList();
  const assignments = new FakeList();
  members.records = Array.from({ length: count }, (_, i) => member(i));
  assignments.records = Array.from({ length: count }, (_, i) => assignment(i, i % 2 ? 'd-lspd' : 'd-safr'));
  const { clock, source, pacer } = fakeLists({ [MEMBERS]: members, [ASSIGNMENTS]: assignments });
  const deps: RosterReadDeps = {
    source,
    pacer,
    logger: recordingLogger().logger,
    mirror,
    maxEntries: 10_000,
  };
  return { members, assignments, clock, deps, mirror };
}

describe('the whole roster read', () => {
  it('a department transfer during the read (one assignment deleted on a page read, one created) leaves every other assignment read', async () => {
    const r = roster(360);
    r.assignments.beforeAnswer = (query, n) => {
      if (n !== 2 || query.memberId !== undefined) return;
      // Member 10 moves from SAFR to LSPD once the first page of assignments was read.
      r.assignments.records = r.assignments.records.filter((a) => a.id !== 'a-10-d-safr');
      r.assignments.records.push(assignment(10, 'd-lspd', stamp(5_000_000)));
    };
    const { value } = await outcome(r.clock, readWholeRoster(r.deps));
    if (value?.kind !== 'read') throw new Error(`not read: ${JSON.stringify(value)}`);
    const departments = (id: string) =>
      value.members.find((m) => m.id === id)?.assignments.map((a) => a.departmentId);
    // The first assignment of the second page, moved onto the first by the deletion.
    expect(departments('m-100')).toEqual(['d-safr']);
    expect(departments('m-10')).toEqual(['d-lspd']);
    const held = value.members.flatMap((m) => m.assignments.map((a) => a.id));
    expect(held.sort()).toEqual(r.assignments.ids().sort());
  });
});

describe('members created since the newest held', () => {
  it('reads a member stamped the same millisecond as the newest one held, and leaves that one as held', async () => {
    const r = roster(120);
    const { value: first } = await outcome(r.clock, readWholeRoster(r.deps));
    if (first?.kind !== 'read') throw new Error('not read');
    r.mirror.beginRead();
    r.mirror.replaceAll(first.members);
    // Created after the read, in the same millisecond as the newest member read.
    const newest = r.members.records.at(-1)!;
    r.members.records.push(member(120, newest.createdAt as string));
    r.assignments.records.push(assignment(120, 'd-lspd', newest.createdAt as string));
    const askedBefore = r.assignments.asked.length;
    const { value } = await outcome(r.clock, readNewMembers(r.deps, first.newest!));
    expect(value?.members.map((m) => [m.id, m.assignments.map((a) => a.departmentId)])).toEqual([
      ['m-120', ['d-lspd']],
    ]);
    // Only the new member's assignments are asked.
    expect(r.assignments.asked.slice(askedBefore).map((q) => q.memberId)).toEqual([['m-120']]);
  });

  it('costs one request when no member is new', async () => {
    const r = roster(120);
    const { value: first } = await outcome(r.clock, readWholeRoster(r.deps));
    if (first?.kind !== 'read') throw new Error('not read');
    r.mirror.beginRead();
    r.mirror.replaceAll(first.members);
    const asked = r.members.asked.length + r.assignments.asked.length;
    const { value } = await outcome(r.clock, readNewMembers(r.deps, first.newest!));
    expect(value?.members).toEqual([]);
    expect(r.members.asked.length + r.assignments.asked.length).toBe(asked + 1);
  });
});
