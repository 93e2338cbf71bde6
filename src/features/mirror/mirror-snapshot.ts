import type { Catalog } from '../../roster/model';
import type { AuditStep } from './mirror-catch-up';
import type { MirrorFreshness } from './mirror-freshness';
import type { MirrorPacer } from './mirror-pacer';
import type { MirrorReads } from './mirror-reads';
import type { RosterMirror } from './roster-mirror';
import { SAVED_MIRROR_LIMIT, type SavedMirror } from './saved-mirror';

export interface SnapshotParts {
  mirror: RosterMirror;
  known: MirrorFreshness;
  reads: MirrorReads;
  pacer: MirrorPacer;
  step: AuditStep;
}

/**
 * What a snapshot keeps of the mirror besides its members, and what a restore gives back: the
 * last full read's time, the newest member read, the day's requests, the feed's position, and
 * the departments and ranks the records are named with.
 */
export class MirrorSnapshot {
  private catalog: Catalog = { departments: [], ranks: [] };

  constructor(private readonly parts: SnapshotParts) {}

  /** Takes back all a snapshot kept but its members (held by the mirror already). */
  restore(saved: SavedMirror): void {
    const { known, reads, pacer } = this.parts;
    this.catalog = saved.catalog;
    known.fullReadAt = saved.fullReadAt;
    reads.newest = saved.newestMember;
    pacer.restoreSpent(saved.spent);
  }

  /**
   * Nothing before a full read or a restore, nor past `SAVED_MIRROR_LIMIT` members. `catalog`:
   * departments and ranks as loaded now; null keeps the ones restored.
   */
  save(catalog: Catalog | null, community: string | null): SavedMirror | null {
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
      community,
    };
  }
}
