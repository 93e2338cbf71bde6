import { describe, expect, it } from 'vitest';
import type { MirroredMember } from '../../../src/features/mirror/mirrored-member';
import { PendingChanges } from '../../../src/features/share/pending-changes';

const member = (id: string, readAt = 1): MirroredMember => ({
  id,
  name: `Member ${id}`,
  status: 'ACTIVE',
  license: `license:${id.padStart(40, '0')}`,
  assignments: [],
  createdAt: null,
  readAt,
});

const doubtedIds = (pending: PendingChanges) =>
  (pending.take(100).members ?? []).filter((write) => write.record.doubted).map((write) => write.memberId);

describe('PendingChanges', () => {
  it('a doubted member is written as it is, marked; told in the same change as its record, still marked', () => {
    const pending = new PendingChanges();
    pending.note([member('a')], [], 5);
    pending.note([], [], 6, [member('a')]);
    expect(doubtedIds(pending)).toEqual(['a']);
    pending.note([member('b')], [], 7, [member('b')]);
    expect(doubtedIds(pending)).toEqual(['b']);
  });

  it('a newer record of theirs clears the mark; a member gone stays gone', () => {
    const pending = new PendingChanges();
    pending.note([], [], 5, [member('a')]);
    pending.note([member('a', 9)], [], 6);
    pending.note([], ['b'], 6);
    pending.note([], [], 7, [member('b')]);
    const change = pending.take(100);
    expect(change.members?.map((w) => [w.memberId, w.record.doubted ?? false])).toEqual([['a', false]]);
    expect(change.removed?.map((r) => r.memberId)).toEqual(['b']);
  });

  it('a failed write gives the mark back', () => {
    const pending = new PendingChanges();
    pending.note([], [], 5, [member('a')]);
    const change = pending.take(100);
    pending.restore(change);
    expect(doubtedIds(pending)).toEqual(['a']);
  });
});
