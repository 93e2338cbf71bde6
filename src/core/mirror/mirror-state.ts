/** Why the mirror is off. */
export type MirrorOff =
  | { why: 'disabled' }
  | { why: 'no-audit-read' }
  | { why: 'audit-off' }
  | { why: 'too-large'; size: number; maxEntries: number };

export type MirrorState =
  | { kind: 'waiting' }
  | { kind: 'reading' }
  | { kind: 'up' }
  | ({ kind: 'off' } & MirrorOff);

/** What `roster status` and `roster doctor` say about the mirror. */
export interface MirrorReport {
  state: MirrorState;
  held: number;
  lastFullReadAt: number | null;
  requestsToday: number;
  /** Why the last read failed, while it has not succeeded since. */
  failure: string | null;
}
