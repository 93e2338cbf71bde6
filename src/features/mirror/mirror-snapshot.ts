import { CatalogIndex } from '../../roster/catalog-index';
import type { Catalog } from '../../roster/model';
import type { MirrorAttachment } from './mirror-attachment';
import type { AuditStep } from './mirror-catch-up';
import type { MirrorFreshness } from './mirror-freshness';
import type { MirrorPacer } from './mirror-pacer';
import type { MirrorReads } from './mirror-reads';
import type { MirrorStatus } from './mirror-status';
import type { MirrorSyncDeps } from './mirror-sync-deps';
import type { RosterMirror } from './roster-mirror';
import { restartState, SAVED_MIRROR_LIMIT, type SavedMirror } from './saved-mirror';

export interface SnapshotParts {
  mirror: RosterMirror;
  known: MirrorFreshness;
  reads: MirrorReads;
  pacer: MirrorPacer;
  step: AuditStep;
  status: MirrorStatus;
  attachment: MirrorAttachment;
  /** `resyncMs`: how old a snapshot may be and still catch up rather than be read again. */
  deps: Pick<MirrorSyncDeps, 'clock' | 'logger' | 'resyncMs'>;
  /** The resource stops: nothing more is restored. */
  stopped(): boolean;
  /** The first read and the passes were begun: too late to drop what a restore brought. */
  begun(): boolean;
}

/**
 * What a snapshot keeps of the mirror besides its members, and what a restore gives back: the
 * last full read's time, the newest member read, the day's requests, the feed's position, the
 * departments and ranks the records are named with, and whose roster it is.
 */
export class MirrorSnapshot {
  private catalog: Catalog = { departments: [], ranks: [] };
  /** The community whose roster is held: the verified key's, else the restored snapshot's. */
  private community: string | null = null;
  /** A snapshot was restored and the key not verified since. */
  private unverified = false;

  constructor(private readonly parts: SnapshotParts) {}

  /** The community whose roster is held (`communityKey`), once known. */
  get communityHeld(): string | null {
    return this.community;
  }

  /**
   * The mirror saved before a restart, loaded before the key is verified: held at once as last
   * known records (and found by id for the audit feed). One whose last full read is younger than
   * `mirror.resyncMinutes` and saved in step with the audit log catches up once the feed runs (true);
   * any other is stale.
   */
  restore(saved: SavedMirror): boolean {
    const { mirror, known, reads, pacer, step, status, attachment, deps } = this.parts;
    if (status.state.kind !== 'waiting' || this.parts.stopped()) return false;
    mirror.restore(saved.members, new CatalogIndex(saved.catalog));
    if (status.off) return false;
    this.community = saved.community;
    this.unverified = true;
    this.catalog = saved.catalog;
    known.fullReadAt = saved.fullReadAt;
    reads.newest = saved.newestMember;
    pacer.restoreSpent(saved.spent);
    attachment.attach();
    const now = deps.clock.now();
    status.state = restartState(saved, now, deps.resyncMs);
    if (status.catchingUp && saved.audit) step.restored(saved.audit, now);
    return status.catchingUp;
  }

  /**
   * The key was verified for `community` (`communityKey`), before `begin`. A restored snapshot of
   * another community's roster, or one that does not say whose it is, is dropped whole (its
   * members are strangers here, for joins and the outage policy alike): the roster is read in full.
   */
  verified(community: string): void {
    const { mirror, known, reads, step, status, deps } = this.parts;
    const restored = this.unverified ? this.community : community;
    this.community = community;
    this.unverified = false;
    if (restored === community || status.off || this.parts.begun() || this.parts.stopped()) return;
    mirror.clear();
    step.lost();
    known.fullReadAt = null;
    reads.newest = null;
    status.state = { kind: 'waiting' };
    deps.logger.warn(
      'the roster mirror in the snapshot was not saved for this community: it is dropped, and the roster is read in full.',
    );
  }

  /**
   * Nothing before a full read or a restore, nor past `SAVED_MIRROR_LIMIT` members. `catalog`:
   * departments and ranks as loaded now; null keeps the ones restored.
   */
  save(catalog: Catalog | null): SavedMirror | null {
    const { known, mirror, step, reads, pacer } = this.parts;
    if (known.fullReadAt === null) return null;
    if (mirror.size > SAVED_MIRROR_LIMIT) return null;
    if (catalog !== null) this.catalog = catalog;
    return {
      fullReadAt: known.fullReadAt,
      audit: step.position(),
      newestMember: reads.newest,
      catalog: this.catalog,
      members: [...mirror.members()],
      spent: pacer.spent,
      community: this.community,
    };
  }
}
