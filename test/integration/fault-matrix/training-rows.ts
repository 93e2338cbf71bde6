import { type MatrixRow, rowsOf, type SharedFault, sharedFault } from './rows';
import type { TrainingRig } from './training-rig';

/** One fault of the learning service, with `gate.requireCourses` set and the roster healthy. */
export interface TrainingFaultRow extends MatrixRow<TrainingRig> {
  /** Config merged over the scaled-down base (e.g. `rateLimit.maxWaitSeconds`). */
  config?: { rateLimit?: { maxWaitSeconds: number }; training?: { maxBodyMB: number } };
  /** The service still answers everything: every player is decided by it (the fault only costs requests). */
  answers?: 'all';
}

const clear = (rig: TrainingRig) => void rig.learning.faults.clear();
const shared = (name: SharedFault, fault: string) =>
  sharedFault(name, `learning: ${fault}`, (rig: TrainingRig) => rig.learning.faults);

const faults = {
  burst503: shared('burst503', '503 burst (proxy page)'),
  hang: shared('hang', 'hang'),
  drop: shared('drop', 'dropped connections'),
  malformed: shared('malformed', 'malformed JSON'),
  retryAfter: shared('retryAfter', '429, Retry-After 2'),
  revoked: {
    fault: 'learning: key revoked mid-run',
    // The refused key stops every training request; its first re-check comes 15 s after the 401.
    recoveryBudgetMs: 15_000,
    suspends: true,
    begin: (r) => void r.learning.faults.revokeKey('enroll'),
    // The mock keeps a revoked key revoked; "the key works again" is the record turned back.
    end: (r) => {
      r.learning.keyRecords.find((k) => k.name === 'enroll')!.revoked = false;
    },
  },
  hangShortGate: {
    fault: 'learning: hang, gate.timeoutSeconds 1',
    // With a 1 s gate the training check gets what the roster lookup left of the deadline.
    gateTimeoutSeconds: 1,
    begin: (r) => void r.learning.faults.hang(),
    end: clear,
  },
  discordOff: {
    fault: 'learning: `discord` flag turned off',
    begin: (r) => void r.learning.faults.flagOff('discord'),
    end: clear,
  },
  // Hostile answers, as on the roster side.
  farReset: shared('farReset', '429, X-RateLimit-Reset 9999999999'),
  hugeRetryAfter: shared('hugeRetryAfter', '429, Retry-After 99999999'),
  hugeBody: shared('hugeBody', 'huge body (400 MB)'),
  endlessPages: shared('endlessPages', 'endless pages (has_more always true)'),
  keyEcho: shared('keyEcho', 'error page echoing the credentials'),
} satisfies Record<string, Omit<TrainingFaultRow, 'onError'>>;

/** `cached` for every fault of the learning service; `allow` and `deny` on a few. */
export const TRAINING_FAULT_ROWS: readonly TrainingFaultRow[] = rowsOf<TrainingFaultRow, keyof typeof faults>(
  faults,
  [
    ['burst503', 'allow'],
    ['hang', 'allow'],
    ['malformed', 'deny'],
    ['discordOff', 'deny'],
  ],
);
