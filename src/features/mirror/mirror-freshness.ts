import type { Clock } from '../../platform/ports';
import type { AuditStep } from './mirror-catch-up';
import type { MirrorReport } from './mirror-state';

/**
 * Audit intervals without the roster known whole before the mirror stops answering joins: a change
 * made just after the last read that reached the end of the log is decided on within an interval
 * (the next read) plus a pass, and no later is the mirror left deciding without it. Reads are
 * counted from when they were asked, so a slow answer does not stretch the span.
 */
const IN_STEP_PASSES = 2;

/**
 * When the roster was last known whole: the last full read, the catch-up of a restored snapshot,
 * or the audit feed reaching the end of the log.
 */
export class MirrorFreshness {
  /** This server's time when the last full read completed (a restored snapshot's, after a restart). */
  fullReadAt: number | null = null;
  /** This run began from a snapshot that caught up: when, in how many audit reads. */
  caughtUp: MirrorReport['caughtUp'] = null;
  /**
   * When the last full read that completed began: it knows the roster as of then, not as of its
   * end (a member suspended after their page was read is not in it).
   */
  private readFrom = Number.NEGATIVE_INFINITY;
  /**
   * The last gap in the audit log (entries that could not be read): when, why, and when a full
   * read begun after it completed (null: none yet, joins are looked up meanwhile).
   */
  lastGap: { at: number; reason: string; rereadAt: number | null } | null = null;
  gaps = 0;
  /** How many full reads had begun when the last gap was seen: only a later one closes it. */
  private readsBeforeGap = 0;

  constructor(
    private readonly clock: Clock,
    /** `refresh.auditSeconds` in ms: how often the audit feed reads. */
    private readonly passMs: number,
    private readonly step: AuditStep,
  ) {}

  /**
   * A full read that began at `startedAt` completed now; `ordinal`: how many full reads had begun
   * when it did, itself included.
   */
  fullRead(startedAt: number, ordinal: number): void {
    this.fullReadAt = this.clock.now();
    this.readFrom = startedAt;
    this.step.readFrom(startedAt);
    if (this.gapOpen && ordinal > this.readsBeforeGap && this.lastGap)
      this.lastGap.rereadAt = this.fullReadAt;
  }

  /**
   * Entries of the audit log were lost now, when `readsBegun` full reads had begun: what is held
   * may miss their changes, whatever those reads bring. Nothing is decided from it until a full
   * read begun after this completes.
   */
  gap(reason: string, readsBegun: number): void {
    this.gaps++;
    this.readsBeforeGap = readsBegun;
    this.lastGap = { at: this.clock.now(), reason, rereadAt: null };
  }

  /** A gap was seen and no full read begun after it has completed yet. */
  get gapOpen(): boolean {
    return this.lastGap !== null && this.lastGap.rereadAt === null;
  }

  /** A restored snapshot caught up now, in `reads` audit reads. */
  caughtUpIn(reads: number): void {
    this.caughtUp = { at: this.clock.now(), reads };
  }

  /**
   * In step while the roster was last known whole (a full read, a catch-up, or the audit feed
   * reaching the end of the log) within the time the feed itself calls healthy: an audit log that
   * cannot be read for a while must not leave joins decided on a roster that no longer holds.
   */
  inStep(): boolean {
    if (this.gapOpen) return false;
    const known = Math.max(
      this.readFrom,
      this.caughtUp?.at ?? Number.NEGATIVE_INFINITY,
      this.step.caughtUpAt() ?? Number.NEGATIVE_INFINITY,
    );
    return this.clock.now() - known < this.passMs * IN_STEP_PASSES;
  }
}
