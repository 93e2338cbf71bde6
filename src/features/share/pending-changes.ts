import type { MirroredMember } from '../mirror/mirrored-member';
import type { SharedMemberChange, SharedMemberWrite, SharedRemoval } from './share-store';
import { memberOf, recordOf, type SharedRecord } from './shared-record';

/**
 * What this server's mirror changed and the database does not know yet, by member id: the newest
 * change of each, so a member changed twice before a write is written once. Kept while the
 * database cannot be reached and written when it answers again: nothing this server learned is lost.
 */
export class PendingChanges {
  private readonly put = new Map<string, MirroredMember>();
  private readonly removed = new Map<string, number>();
  /** Of the members put, those written as doubted (until a newer record of theirs is noted). */
  private readonly doubted = new Set<string>();

  /**
   * `removed`: member ids no longer held, as of `at` (this server's time); `doubted`: members held
   * whose records came into doubt, written again as they are with the mark.
   */
  note(
    put: readonly MirroredMember[],
    removed: readonly string[],
    at: number,
    doubted: readonly MirroredMember[] = [],
  ): void {
    for (const member of put) {
      this.removed.delete(member.id);
      this.doubted.delete(member.id);
      this.put.set(member.id, member);
    }
    for (const member of doubted) {
      if (this.removed.has(member.id)) continue;
      this.put.set(member.id, member);
      this.doubted.add(member.id);
    }
    for (const id of removed) {
      this.put.delete(id);
      this.doubted.delete(id);
      this.removed.set(id, at);
    }
  }

  get size(): number {
    return this.put.size + this.removed.size;
  }

  /**
   * Takes at most `limit` changes, oldest first, as one write; `restore` gives them back when the
   * write fails.
   */
  take(limit: number): SharedMemberChange<SharedRecord> & { taken: number } {
    const members: SharedMemberWrite<SharedRecord>[] = [];
    const removed: SharedRemoval[] = [];
    for (const [id, member] of this.put) {
      if (members.length >= limit) break;
      this.put.delete(id);
      const record = recordOf(member);
      if (this.doubted.delete(id)) record.doubted = true;
      members.push({ memberId: id, license: member.license, record, readAt: member.readAt });
    }
    for (const [id, at] of this.removed) {
      if (members.length + removed.length >= limit) break;
      this.removed.delete(id);
      removed.push({ memberId: id, readAt: at });
    }
    return { members, removed, taken: members.length + removed.length };
  }

  /** A write that failed: its changes are pending again, unless newer ones came meanwhile. */
  restore(change: SharedMemberChange<SharedRecord>): void {
    for (const write of change.members ?? [])
      if (!this.put.has(write.memberId) && !this.removed.has(write.memberId)) {
        this.put.set(write.memberId, memberOf(write.record, write.readAt));
        if (write.record.doubted) this.doubted.add(write.memberId);
      }
    for (const removal of change.removed ?? [])
      if (!this.put.has(removal.memberId) && !this.removed.has(removal.memberId))
        this.removed.set(removal.memberId, removal.readAt);
  }
}
