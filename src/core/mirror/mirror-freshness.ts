import type { Clock } from '../ports';
import type { AuditStep } from './mirror-catch-up';
import type { MirrorReport } from './mirror-state';

/** Audit intervals without the roster known whole before the mirror stops answering joins. */
const IN_STEP_PASSES = 2.5;

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

  constructor(
    private readonly clock: Clock,
    /** `refresh.auditSeconds` in ms: how often the audit feed reads. */
    private readonly passMs: number,
    private readonly step: AuditStep,
  ) {}

  /** A full read that began at `startedAt` completed now. */
  fullRead(startedAt: number): void {
    this.fullReadAt = this.clock.now();
    this.readFrom = startedAt;
    this.step.readFrom(startedAt);
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
    const known = Math.max(
      this.readFrom,
      this.caughtUp?.at ?? Number.NEGATIVE_INFINITY,
      this.step.caughtUpAt() ?? Number.NEGATIVE_INFINITY,
    );
    return this.clock.now() - known < this.passMs * IN_STEP_PASSES;
  }
}
