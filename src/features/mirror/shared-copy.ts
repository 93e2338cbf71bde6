import type { AuditPosition } from '../audit/audit-feed';
import type { CopiedRows } from './member-index';
import type { MirrorAttachment } from './mirror-attachment';
import type { AuditStep } from './mirror-catch-up';
import type { MirrorFreshness } from './mirror-freshness';
import type { MirrorReads } from './mirror-reads';
import type { MirrorStatus } from './mirror-status';
import type { MirrorSyncDeps } from './mirror-sync-deps';
import { licenseKey } from './mirrored-member';
import type { RosterMirror } from './roster-mirror';

/** Where another server left the roster when this one takes over reading it. */
export interface SharedStart {
  /** Where that server's audit feed had handled the log, every change in the members held; null: not known. */
  audit: AuditPosition | null;
  /** When its last full read completed (its clock); null: none. */
  fullReadAt: number | null;
  /** Its mirror was complete and in step when it last wrote. */
  complete: boolean;
}

/**
 * The parts of the mirror's own keeping that following another server touches: the copy is held
 * in the same mirror, and leading again picks the audit log and the full reads up where they are.
 */
export interface SharedCopyParts {
  mirror: RosterMirror;
  known: MirrorFreshness;
  status: MirrorStatus;
  step: AuditStep;
  reads: MirrorReads;
  /** Lets the roster find what is held: from the first complete copy, before the key check ends. */
  attachment: Pick<MirrorAttachment, 'attach'>;
  /** `resyncMs`: how old a full read the copy may lead on from; the players online it reaches. */
  deps: Pick<MirrorSyncDeps, 'clock' | 'logger' | 'resyncMs' | 'online' | 'onlineLicenses'>;
  /** The resource stops: nothing more is applied or read. */
  stopped(): boolean;
  /** The first read and the passes were begun (the key is verified). */
  begun(): boolean;
  /** In step by this server's own reads (what answers joins once it leads again). */
  ownInStep(): boolean;
  /** The audit feed is followed again, now that this server reads: a catch-up starts if it runs. */
  resumeFeed(): void;
}

/**
 * The mirror as a copy of the roster another server reads, kept apart from this server's own
 * reads: while it follows, what the database holds is applied and nothing is read of its own;
 * `lead` hands the reading back to this server.
 */
export class SharedCopy {
  private followingNow = false;

  constructor(private readonly parts: SharedCopyParts) {}

  /**
   * Another server reads the roster and this one follows it through the database: no reads of
   * its own (no first read, no audit catch-up, no full re-reads) until `lead`.
   */
  get following(): boolean {
    return this.followingNow;
  }

  /**
   * Another server reads the roster; this one holds what it wrote to the database (`apply`) and
   * reads nothing of its own, and answers joins while `inStep` says that copy is current. A read
   * of its own under way ends at its next wait.
   */
  follow(inStep: () => boolean): void {
    if (this.parts.stopped() || this.parts.status.off) return;
    this.followingNow = true;
    this.parts.mirror.inStep = inStep;
  }

  /**
   * Records other servers wrote, as the database holds them: put, or no longer held (member ids).
   * `whole`: they are every member the database holds; any other held is no longer. While this
   * server reads the roster itself, only records read later than its own are taken (what another
   * server looked up); while it follows, every one. The players online whose record changed
   * follow it at once.
   */
  apply(rows: CopiedRows, whole = false): void {
    const { mirror, status } = this.parts;
    const { online, onlineLicenses } = this.parts.deps;
    if (status.off || this.parts.stopped()) return;
    if (whole && !this.followingNow) return;
    let gone = rows.removed;
    if (whole) {
      const kept = new Set(rows.put.map((member) => member.id));
      const missing = [...mirror.members()].filter((m) => !kept.has(m.id));
      gone = [...gone, ...missing.map((m) => ({ id: m.id, readAt: Number.POSITIVE_INFINITY }))];
    }
    if (rows.put.length === 0 && gone.length === 0) return;
    const changed = mirror.applyShared({ ...rows, removed: gone }, !this.followingNow);
    if (changed.length === 0 || !mirror.complete) return;
    const playing = new Set<string>();
    for (const license of onlineLicenses?.() ?? []) playing.add(licenseKey(license));
    if (changed.some((key) => playing.has(key))) void online.followMirror();
  }

  /**
   * The reader said its roster is complete (its last full read completed at `fullReadAt`, its
   * clock): what was applied is the whole roster, answered while the copy stays in step.
   */
  complete(fullReadAt: number | null): void {
    const { mirror, status, known } = this.parts;
    const { online, logger } = this.parts.deps;
    if (!this.followingNow || status.off || this.parts.stopped()) return;
    if (fullReadAt !== null) known.fullReadAt = fullReadAt;
    // Said every time the database is read: only the first time changes anything.
    if (mirror.complete && status.state.kind === 'up') return;
    mirror.trust();
    status.fullRead();
    // The rows are this key's: joins are decided from them at once, as from a restored snapshot.
    this.parts.attachment.attach();
    void online.followMirror();
    logger.info(
      `the roster mirror holds the shared roster's ${mirror.size} members: their joins are decided without a request.`,
    );
  }

  /**
   * This server reads the roster again itself (it holds the lease, or the database cannot be
   * trusted): from where the reader left the audit log (`from`: every change before it is in the
   * members it wrote) when what is held is the copy of a complete roster and its last full read is
   * younger than `mirror.resyncMinutes`, as after a restart from a recent snapshot; a snapshot
   * restored and still catching up goes on doing so; else what is held may miss changes (a gap):
   * nothing is decided from it until a full read completes, which begins now.
   */
  lead(from: SharedStart | null): void {
    const { mirror, status, known, step, reads } = this.parts;
    if (!this.followingNow || this.parts.stopped() || status.off) return;
    this.followingNow = false;
    mirror.inStep = () => this.parts.ownInStep();
    const now = this.parts.deps.clock.now();
    const age = from?.fullReadAt == null ? Number.POSITIVE_INFINITY : now - from.fullReadAt;
    if (from?.audit && mirror.complete && age >= 0 && age < this.parts.deps.resyncMs) {
      known.fullReadAt = from.fullReadAt;
      status.state = { kind: 'catching-up', from: 'shared roster' };
      step.restored(from.audit, now);
    }
    if (status.catchingUp) {
      // The feed runs already (a handover): the catch-up starts now; else when it starts.
      this.parts.resumeFeed();
      return;
    }
    if (mirror.complete)
      known.gap('the shared roster could not be followed on from the database', reads.begun);
    if (this.parts.begun()) void reads.resync();
  }
}
