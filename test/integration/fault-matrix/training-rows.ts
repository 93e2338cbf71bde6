import type { OnError } from './rows';
import type { Column } from './run';
import type { TrainingRig } from './training-rig';
import type { WireAnswer } from './wire';

/** One fault of the learning service, with `gate.requireCourses` set and the roster healthy. */
export interface TrainingFaultRow {
  fault: string;
  onError: OnError;
  /** `gate.timeoutSeconds` when not the scaled-down 2 s (the deadline column then allows this + 1 s). */
  gateTimeoutSeconds?: number;
  /** Config merged over the scaled-down base (e.g. `rateLimit.maxWaitSeconds`). */
  config?: { rateLimit?: { maxWaitSeconds: number }; training?: { maxBodyMB: number } };
  /** The service still answers everything: every player is decided by it (the fault only costs requests). */
  answers?: boolean;
  /** The key is refused: once the client has seen it, nothing may be sent until its re-check. */
  suspends?: boolean;
  /** How long after the fault ends a trained player may still not be decided by the service. */
  recoveryBudgetMs?: number;
  /**
   * The service answers 429: when the pause such an answer sets ends (epoch ms), given when the
   * client had it. No request may leave the client in between. A row without it expects no 429.
   */
  pausedUntil?: (answer: WireAnswer) => number;
  /** Columns a bug in the resource makes fail, with the reason (those run as `it.fails`). */
  knownBugs?: Partial<Record<Column, string>>;
  begin(rig: TrainingRig): void;
  end(rig: TrainingRig): void;
}

const clear = (rig: TrainingRig) => void rig.learning.faults.clear();
/** `rateLimit.maxWaitSeconds` of the hostile-wait rows. */
const HOSTILE_WAIT_S = 3;

const faults = {
  burst503: {
    fault: 'learning: 503 burst (proxy page)',
    begin: (r) => void r.learning.faults.failNext(1000, 503),
    end: clear,
  },
  hang: { fault: 'learning: hang', begin: (r) => void r.learning.faults.hang(), end: clear },
  drop: {
    fault: 'learning: dropped connections',
    begin: (r) => void r.learning.faults.dropConnection(1000),
    end: clear,
  },
  malformed: {
    fault: 'learning: malformed JSON',
    begin: (r) => void r.learning.faults.malformedJson(),
    end: clear,
  },
  retryAfter: {
    fault: 'learning: 429, Retry-After 2',
    // The last 429 before the fault ends still pauses every training request for its 2 s.
    recoveryBudgetMs: 6000,
    pausedUntil: (answer) => answer.at + 2000,
    begin: (r) => void r.learning.faults.rateLimit(1000, { retryAfter: 2 }),
    end: clear,
  },
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
  farReset: {
    fault: 'learning: 429, X-RateLimit-Reset 9999999999',
    config: { rateLimit: { maxWaitSeconds: HOSTILE_WAIT_S } },
    recoveryBudgetMs: HOSTILE_WAIT_S * 1000 + 4000,
    // Without Retry-After the reset decides, capped at rateLimit.maxWaitSeconds.
    pausedUntil: (answer) => answer.at + HOSTILE_WAIT_S * 1000,
    begin: (r) => void r.learning.faults.rateLimit(1000, { retryAfter: null }).farReset('9999999999'),
    end: clear,
  },
  hugeRetryAfter: {
    fault: 'learning: 429, Retry-After 99999999',
    config: { rateLimit: { maxWaitSeconds: HOSTILE_WAIT_S } },
    recoveryBudgetMs: HOSTILE_WAIT_S * 1000 + 4000,
    pausedUntil: (answer) => answer.at + HOSTILE_WAIT_S * 1000,
    begin: (r) => void r.learning.faults.rateLimit(1000, { retryAfter: 99_999_999 }),
    end: clear,
  },
  hugeBody: {
    fault: 'learning: huge body (400 MB)',
    begin: (r) => void r.learning.faults.hugeBody(),
    end: clear,
  },
  endlessPages: {
    fault: 'learning: endless pages (has_more always true)',
    answers: true,
    begin: (r) => void r.learning.faults.endless(),
    end: clear,
  },
  keyEcho: {
    fault: 'learning: error page echoing the credentials',
    begin: (r) => void r.learning.faults.echoCredentials(),
    end: clear,
  },
} satisfies Record<string, Omit<TrainingFaultRow, 'onError'>>;

const row = (
  name: keyof typeof faults,
  onError: OnError,
  knownBugs?: TrainingFaultRow['knownBugs'],
): TrainingFaultRow => ({ ...faults[name], onError, ...(knownBugs ? { knownBugs } : {}) });

/** `cached` for every fault of the learning service; `allow` and `deny` on a few. */
export const TRAINING_FAULT_ROWS: readonly TrainingFaultRow[] = [
  // With a 1 s gate the training check gets what the roster lookup left of the deadline.
  ...(Object.keys(faults) as (keyof typeof faults)[]).map((name) => row(name, 'cached')),
  row('burst503', 'allow'),
  row('hang', 'allow'),
  row('malformed', 'deny'),
  row('discordOff', 'deny'),
];
