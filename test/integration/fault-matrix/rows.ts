import type { FaultSwitches } from '../../../dev/mock-http/fault-switches';
import type { Column } from './table';
import type { WireAnswer } from './wire';

export type OnError = 'cached' | 'allow' | 'deny';

/** One fault of the matrix, on either side: how to switch it on and off, and what the row may expect. */
export interface MatrixRow<Rig> {
  fault: string;
  onError: OnError;
  /** `gate.timeoutSeconds` when not the scaled-down 2 s (the deadline column then allows this + 1 s). */
  gateTimeoutSeconds?: number;
  /** The key is refused: once the client has seen that, nothing may be sent until its re-check. */
  suspends?: boolean;
  /** How long after the fault ends a new player may still not be decided by the service. */
  recoveryBudgetMs?: number;
  /**
   * The service answers 429: when the pause such an answer sets ends (epoch ms), given when the
   * client had it. No request may leave the client in between. A row without it expects no 429.
   */
  pausedUntil?: (answer: WireAnswer) => number;
  /** Columns a bug in the resource makes fail, with the reason (those run as `it.fails`). */
  knownBugs?: Partial<Record<Column, string>>;
  begin(rig: Rig): Promise<void> | void;
  end(rig: Rig): Promise<void> | void;
}

/** `rateLimit.maxWaitSeconds` of the hostile-wait rows: the longest wait the service can impose. */
const HOSTILE_WAIT_S = 3;
const hostileWait = {
  config: { rateLimit: { maxWaitSeconds: HOSTILE_WAIT_S } },
  // Whatever the answer asks for, the pause is capped at rateLimit.maxWaitSeconds.
  recoveryBudgetMs: HOSTILE_WAIT_S * 1000 + 4000,
  pausedUntil: (answer: WireAnswer) => answer.at + HOSTILE_WAIT_S * 1000,
};

/**
 * The faults both mocks have (their shared switches), with what a row of each expects on either
 * side: a row names the fault and says which mock to switch.
 */
const SHARED_FAULTS = {
  burst503: { on: (f: FaultSwitches) => f.failNext(1000, 503) },
  hang: { on: (f: FaultSwitches) => f.hang() },
  drop: { on: (f: FaultSwitches) => f.dropConnection(1000) },
  malformed: { on: (f: FaultSwitches) => f.malformedJson() },
  retryAfter: {
    // The last 429 before the fault ends still pauses every request for its 2 s.
    recoveryBudgetMs: 6000,
    pausedUntil: (answer: WireAnswer) => answer.at + 2000,
    on: (f: FaultSwitches) => f.rateLimit(1000, { retryAfter: 2 }),
  },
  // Hostile answers: each must cost a bounded wait, a bounded read, and never the key.
  farReset: {
    ...hostileWait,
    // Without Retry-After the reset decides.
    on: (f: FaultSwitches) => f.rateLimit(1000, { retryAfter: null }).farReset('9999999999'),
  },
  farResetDelta: {
    ...hostileWait,
    on: (f: FaultSwitches) => f.rateLimit(1000, { retryAfter: null }).farReset('999999999'),
  },
  hugeRetryAfter: { ...hostileWait, on: (f: FaultSwitches) => f.rateLimit(1000, { retryAfter: 99_999_999 }) },
  hugeBody: { on: (f: FaultSwitches) => f.hugeBody() },
  endlessPages: { answers: 'all' as const, on: (f: FaultSwitches) => f.endless() },
  keyEcho: { on: (f: FaultSwitches) => f.echoCredentials() },
};
export type SharedFault = keyof typeof SHARED_FAULTS;

/** A fault both mocks have, as a side's row named `fault`: switched on the mock `faultsOf` gives, off by `clear()`. */
export function sharedFault<Rig>(name: SharedFault, fault: string, faultsOf: (rig: Rig) => FaultSwitches) {
  const { on, ...expects } = SHARED_FAULTS[name];
  return {
    fault,
    ...expects,
    begin: (rig: Rig) => void on(faultsOf(rig)),
    end: (rig: Rig) => void faultsOf(rig).clear(),
  };
}

/** Known bugs of one row, merged over those of its fault. */
type Bugs = MatrixRow<never>['knownBugs'];

/** A side's rows: every fault with `cached`, then the `[fault, onError, knownBugs?]` listed. */
export function rowsOf<Row extends { onError: OnError; knownBugs?: Bugs }, Name extends string>(
  faults: Record<Name, Omit<Row, 'onError'>>,
  others: readonly (readonly [Name, OnError, Bugs?])[],
): Row[] {
  const row = (name: Name, onError: OnError, knownBugs?: Bugs) =>
    ({
      ...faults[name],
      onError,
      ...(knownBugs ? { knownBugs: { ...faults[name].knownBugs, ...knownBugs } } : {}),
    }) as Row;
  return [
    ...(Object.keys(faults) as Name[]).map((name) => row(name, 'cached')),
    ...others.map(([name, onError, knownBugs]) => row(name, onError, knownBugs)),
  ];
}
