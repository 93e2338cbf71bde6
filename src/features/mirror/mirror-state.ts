import type { StampSkewState } from '../audit/stamp-skew';

/** Why the mirror is off. */
export type MirrorOff =
  | { why: 'disabled' }
  | { why: 'no-audit-read' }
  | { why: 'audit-off' }
  | { why: 'too-large'; size: number; maxEntries: number };

export type MirrorState =
  | { kind: 'waiting' }
  | { kind: 'reading' }
  /**
   * Loaded from a recent snapshot, or held as the copy of the roster another server read (this
   * server took over reading it): the audit log since is read before joins are decided from it.
   */
  | { kind: 'catching-up'; from: 'snapshot' | 'shared roster' }
  /** Loaded from a snapshot that cannot be made current: last known records only, until a full read. */
  | { kind: 'stale'; why: string }
  | { kind: 'up' }
  | ({ kind: 'off' } & MirrorOff);

/** What `roster status`, `roster doctor` and the panel say about the mirror. */
export interface MirrorReport {
  state: MirrorState;
  held: number;
  lastFullReadAt: number | null;
  requestsToday: number;
  /** Why the last read failed, while it has not succeeded since. */
  failure: string | null;
  /** This run began from a snapshot that caught up: when (this server's time), in how many audit reads. */
  caughtUp: { at: number; reads: number } | null;
  /** When the audit feed last reached the end of the log (this server's time); null: not yet, or no feed. */
  auditReadAt: number | null;
  /** Joins of the members held are decided from it now (complete, in step, no gap open). */
  deciding: boolean;
  /** Gaps in the audit log seen this run. */
  gaps: number;
  /**
   * The last gap (this server's time): why, and when the full read begun after it completed,
   * which ended it (null: not yet; joins are looked up until then).
   */
  lastGap: { at: number; reason: string; rereadAt: number | null } | null;
  /** Audit entries stamped too far ahead of the service's clock (acted on; the log is read on its clock). */
  clockSkew: StampSkewState | null;
  /** Another server reads the roster and this one holds its copy from the database. */
  followingShared?: boolean;
}
