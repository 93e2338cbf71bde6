import type { DoubtedRecords } from './doubted-records';
import type { CopiedRows, MemberIndex } from './member-index';
import { licenseKey } from './mirrored-member';
import type { ReadsUnderWay } from './named-window';

/** What applying a copy's rows touches of the roster mirror. */
export interface CopyTarget {
  index: MemberIndex;
  reads: ReadsUnderWay;
  doubted: DoubtedRecords;
}

/**
 * Records another server read, as the shared roster holds them: put by license, removed by member
 * id; `newerOnly`: a record is taken, or a member dropped, only when read later than the one held
 * (this server reads the service too). A full read under way keeps them on top of what it brings,
 * as it does the service's answers. Gives the license keys changed.
 */
export function applyCopiedRows(target: CopyTarget, rows: CopiedRows, newerOnly: boolean): string[] {
  const { index, reads, doubted } = target;
  const changed: string[] = [];
  for (const { id, readAt } of rows.removed) {
    const key = index.licenseNamedBy(id);
    const held = key === undefined ? undefined : index.get(key);
    if (key === undefined || held?.id !== id) continue;
    // Learned before this server's own record was read: that record stands.
    if (newerOnly && held.readAt >= readAt) continue;
    index.remove(key);
    reads.heard(key, null);
    changed.push(key);
  }
  for (const member of rows.put) {
    const key = licenseKey(member.license);
    const held = index.get(key);
    if (newerOnly && held !== undefined && held.readAt >= member.readAt) continue;
    doubted.delete(key);
    // A doubt the copy brings is the copy's already: not told back to it.
    if (rows.doubted?.has(member.id)) doubted.add(key, false);
    index.put(member);
    reads.heard(key, member);
    changed.push(key);
  }
  return changed;
}
