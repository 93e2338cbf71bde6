import { describe, expect, it } from 'vitest';
import { AUDIT_SHAPES, shapeEntry } from '../../../dev/mock-roster/audit-shapes';
import { MAX_ENTRY_DEPTH } from '../../../src/features/audit/entry-values';
import { type DutyEntryIndex, membersNamedByDutyEntries } from '../../../src/features/duty/duty-entries';

const index: DutyEntryIndex = {
  owners: new Map([
    ['ds_1', 'mem_1'],
    ['ds_2', 'mem_2'],
  ]),
  members: new Set(['mem_1', 'mem_2', 'mem_3']),
  fields: {
    member: 'rosterRef',
    end: 'stoodDownAt',
    duration: { field: 'onDutySeconds', unitMs: 1000 },
    sortable: { startedAt: true, createdAt: true },
  },
};
const actor = { id: 'usr_staff', name: 'Staff' };
const named = (...entries: unknown[]) => [...membersNamedByDutyEntries(entries, index)].sort();

describe('audit entries about duty sessions', () => {
  it('every shape the dashboard writes a session correction in names its member', () => {
    for (const shape of AUDIT_SHAPES) {
      const entry = shapeEntry(
        shape,
        { kind: 'duty_session', id: 'ds_2', memberId: 'mem_2', field: 'deleted', from: false, to: true },
        actor,
      );
      expect(named(entry), shape).toEqual(['mem_2']);
    }
  });

  it('a session held names its member; a session not held names no one unless the entry speaks of duty', () => {
    expect(named({ id: 'a1', action: 'UPDATE', ref: 'ds_1' })).toEqual(['mem_1']);
    expect(named({ id: 'a2', action: 'UPDATE', ref: 'ds_9', memberId: 'mem_3' })).toEqual([]);
    expect(
      named({ id: 'a3', action: 'UPDATE', ref: 'ds_9', memberId: 'mem_3', field: 'onDutySeconds' }),
    ).toEqual(['mem_3']);
    expect(named({ id: 'a4', note: 'Clocked off duty by staff', who: { id: 'mem_3' } })).toEqual(['mem_3']);
    expect(named({ id: 'a5', type: 'TimelogCreated', memberId: 'mem_1' })).toEqual(['mem_1']);
  });

  it('an entry about a member and not their duty (a rank change) names no one', () => {
    const entry = shapeEntry(
      'metadata',
      {
        kind: 'department_assignment',
        id: 'asg_1',
        memberId: 'mem_1',
        field: 'rankId',
        from: 'r1',
        to: 'r2',
      },
      actor,
    );
    expect(named(entry)).toEqual([]);
  });

  it('members offline are not named; an entry too deep to read is skipped without a throw', () => {
    expect(named({ id: 'b1', action: 'duty_session.update', memberId: 'mem_99' })).toEqual([]);
    let deep: unknown = 'ds_1';
    for (let i = 0; i <= MAX_ENTRY_DEPTH; i++) deep = { nested: deep };
    expect(named(deep, { id: 'b2', ref: 'ds_2' })).toEqual(['mem_2']);
  });
});
