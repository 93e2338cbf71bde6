import type { AuditPosition } from '../audit/audit-feed';
import type { SharedMirror } from '../mirror/handle';
import type { PendingChanges } from './pending-changes';
import { SHARED_PAGE_LIMIT, type SharedChange } from './share-store';
import type { SharedRecord, Store } from './shared-record';

type Change = SharedChange<SharedRecord, AuditPosition>;

/**
 * What this server writes to the database: a follower writes through what it learned from the
 * service; the reader publishes what its mirror changed, with its audit position and whether its
 * roster is complete (both only once everything its mirror changed before is written: the
 * position never runs ahead of the members).
 */
export class SharedWrites {
  private published = new Published();

  constructor(
    private readonly store: Store,
    private readonly mirror: SharedMirror,
    private readonly pending: PendingChanges,
  ) {}

  /** A new turn as reader: nothing of its state is taken as written. */
  lead(): void {
    this.published = new Published();
  }

  /** A follower's write: what it learned from the service (a stranger, a re-read). */
  async through(): Promise<void> {
    if (this.pending.size === 0) return;
    const change = this.pending.take(SHARED_PAGE_LIMIT);
    try {
      await this.store.writeThrough({ members: change.members ?? [], removed: change.removed ?? [] });
    } catch (error) {
      this.pending.restore(change);
      throw error;
    }
  }

  /**
   * The reader's write, as `holder` of the lease; `community` is the one the database holds.
   * What was written (nothing: empty); null when the lease was lost and nothing was written.
   */
  async publish(holder: string, community: string | null | undefined): Promise<Change | null> {
    const { mirror, published } = this;
    const members = this.pending.take(SHARED_PAGE_LIMIT);
    const change: Change = {};
    if (members.taken > 0) Object.assign(change, { members: members.members, removed: members.removed });
    let auditReadAt: number | null = null;
    if (this.pending.size === 0) {
      const report = mirror.report();
      const audit = mirror.auditPosition();
      const complete = report.deciding;
      const text = audit === null ? null : JSON.stringify(audit);
      if (text !== null && text !== published.audit) change.auditPosition = audit;
      if (complete !== published.complete) change.complete = complete;
      if (report.lastFullReadAt !== published.fullReadAt) change.fullReadAt = report.lastFullReadAt;
      // The audit log read to its end again: written even when nothing moved, so the others know
      // the roster is still being kept (a quiet log moves no position).
      if (report.auditReadAt !== null && report.auditReadAt !== published.auditReadAt) {
        change.complete = complete;
        auditReadAt = report.auditReadAt;
      }
      const held = mirror.communityHeld;
      if (held !== null && held !== community) change.community = held;
    }
    // Nothing changed: nothing written (a write raises the version the others read above).
    if (Object.keys(change).length === 0) return change;
    let version: number | null;
    try {
      version = await this.store.publish(holder, change);
    } catch (error) {
      this.pending.restore(members);
      throw error;
    }
    if (version === null) {
      this.pending.restore(members);
      return null;
    }
    if (change.auditPosition !== undefined) this.published.audit = JSON.stringify(change.auditPosition);
    if (change.complete !== undefined) this.published.complete = change.complete;
    if (change.fullReadAt !== undefined) this.published.fullReadAt = change.fullReadAt;
    if (auditReadAt !== null) this.published.auditReadAt = auditReadAt;
    return change;
  }
}

/** What the reader last wrote of its state, so it writes only what moved. */
class Published {
  audit: string | null = null;
  complete: boolean | null = null;
  fullReadAt: number | null = null;
  /** Its audit feed's last read to the end of the log, when last written (this server's time). */
  auditReadAt: number | null = null;
}
