import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { UnreadableLicense } from '../../../dev/mock-roster/faults';
import type { Rig } from './rig';
import type { Column } from './run';
import type { WireAnswer } from './wire';

export type OnError = 'cached' | 'allow' | 'deny';

/** One fault of the matrix: how to switch it on and off, and what the row may expect. */
export interface FaultRow {
  fault: string;
  onError: OnError;
  /** Config merged over the scaled-down base (e.g. a longer `api.timeoutMs`). */
  config?: { api?: { timeoutMs: number }; rateLimit?: { maxWaitSeconds: number } };
  /** Serve the row through the teapot proxy. */
  proxy?: boolean;
  /** The key is refused for good: the client must stop sending and re-check it once a minute. */
  suspends?: boolean;
  /** A short burst that retries may absorb: the roster's own answer is as good as the policy's. */
  mayAnswer?: boolean;
  /**
   * The service still answers what it can: `all`, every player is decided from the roster (the
   * fault only costs requests); `stranger`, a license with no record is "not on the roster" (no
   * record came to misread) while the others follow the policy.
   */
  answers?: 'all' | 'stranger';
  /** Whether members seen before the fault are still known during it (false: restarted without a snapshot). */
  knownDuringFault?: boolean;
  /** How long after the fault ends a new player may still not be decided from the roster. */
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

/** Issue 12, finding 2: a member record without a readable license is read as "not on the roster". */
/** `rateLimit.maxWaitSeconds` of the hostile-wait rows: the longest wait the service can impose. */
const HOSTILE_WAIT_S = 3;
/** As in fault-matrix-run: two gate deadlines. */
const DEFAULT_RECOVERY_MS = 4000;

/** The suspension re-check runs once a minute (not configurable): recovery can take that long. */
const MINUTE_AND_MARGIN = 66_000;

const clear = (rig: Rig) => void rig.mock.faults.clear();

const faults = {
  burst502: {
    fault: '502 burst (proxy page)',
    begin: (r) => void r.mock.faults.failNext(1000, 502),
    end: clear,
  },
  burst503: {
    fault: '503 burst (proxy page)',
    begin: (r) => void r.mock.faults.failNext(1000, 503),
    end: clear,
  },
  blip503: {
    fault: '503 ×2 (retries absorb it)',
    mayAnswer: true,
    begin: (r) => void r.mock.faults.failNext(2, 503),
    end: clear,
  },
  internal: { fault: '500 `internal`', begin: (r) => void r.mock.faults.internal(), end: clear },
  hang: { fault: 'hang', begin: (r) => void r.mock.faults.hang(), end: clear },
  hangLong: {
    fault: 'hang, api.timeoutMs 60 s',
    config: { api: { timeoutMs: 60_000 } },
    begin: (r) => void r.mock.faults.hang(),
    end: clear,
  },
  drop: { fault: 'dropped connections', begin: (r) => void r.mock.faults.dropConnection(1000), end: clear },
  malformed: { fault: 'malformed JSON', begin: (r) => void r.mock.faults.malformedJson(), end: clear },
  teapot: {
    fault: 'unknown error code `teapot` (418)',
    proxy: true,
    begin: (r) => {
      r.proxy!.teapot = true;
    },
    end: (r) => {
      r.proxy!.teapot = false;
    },
  },
  retryAfter: {
    fault: '429, Retry-After 2',
    // The last 429 before the fault ends still pauses every request for its 2 s.
    recoveryBudgetMs: 6000,
    pausedUntil: (answer) => answer.at + 2000,
    begin: (r) => void r.mock.faults.rateLimit(1000, { retryAfter: 2 }),
    end: clear,
  },
  noRetryAfter: {
    fault: '429, no Retry-After',
    // Without Retry-After the pause lasts until X-RateLimit-Reset: the end of the calendar minute.
    recoveryBudgetMs: MINUTE_AND_MARGIN,
    pausedUntil: (answer) => Number(answer.headers['x-ratelimit-reset']) * 1000,
    begin: (r) => void r.mock.faults.rateLimit(1000, { retryAfter: null }),
    end: clear,
  },
  revoked: {
    fault: 'key revoked mid-run',
    suspends: true,
    recoveryBudgetMs: MINUTE_AND_MARGIN,
    begin: (r) => void r.mock.faults.revokeKey('full'),
    // The mock keeps a revoked key revoked; "the key works again" is the record turned back.
    end: (r) => {
      r.mock.keyRecords.find((k) => k.name === 'full')!.revoked = false;
    },
  },
  expired: {
    fault: 'key expired mid-run',
    suspends: true,
    recoveryBudgetMs: MINUTE_AND_MARGIN,
    begin: (r) => void r.mock.faults.expireKey('full'),
    end: (r) => {
      r.mock.keyRecords.find((k) => k.name === 'full')!.expiresAt = null;
    },
  },
  planLost: {
    fault: 'plan lost',
    suspends: true,
    recoveryBudgetMs: MINUTE_AND_MARGIN,
    begin: (r) => void r.mock.faults.planLost(),
    end: clear,
  },
  ipRefused: {
    fault: 'IP refused',
    suspends: true,
    recoveryBudgetMs: MINUTE_AND_MARGIN,
    begin: (r) => void r.mock.faults.refuseIp(),
    end: clear,
  },
  unreachableSnapshot: unreachable(true),
  unreachableBare: unreachable(false),
  latency: {
    fault: 'latency 2.5 s > gate.timeoutSeconds',
    begin: (r) => void r.mock.faults.latency(2500),
    end: clear,
  },
  latencyLongTimeout: {
    fault: 'latency 2.5 s, api.timeoutMs 5 s',
    config: { api: { timeoutMs: 5000 } },
    begin: (r) => void r.mock.faults.latency(2500),
    end: clear,
  },
  // Hostile answers: each must cost a bounded wait, a bounded read, and never the key.
  farReset: {
    fault: '429, X-RateLimit-Reset 9999999999 (year 2286)',
    config: { rateLimit: { maxWaitSeconds: HOSTILE_WAIT_S } },
    recoveryBudgetMs: HOSTILE_WAIT_S * 1000 + DEFAULT_RECOVERY_MS,
    pausedUntil: (answer) => answer.at + HOSTILE_WAIT_S * 1000,
    begin: (r) => void r.mock.faults.rateLimit(1000, { retryAfter: null }).farReset('9999999999'),
    end: clear,
  },
  farResetDelta: {
    fault: '429, X-RateLimit-Reset 999999999 (31-year delta)',
    config: { rateLimit: { maxWaitSeconds: HOSTILE_WAIT_S } },
    recoveryBudgetMs: HOSTILE_WAIT_S * 1000 + DEFAULT_RECOVERY_MS,
    pausedUntil: (answer) => answer.at + HOSTILE_WAIT_S * 1000,
    begin: (r) => void r.mock.faults.rateLimit(1000, { retryAfter: null }).farReset('999999999'),
    end: clear,
  },
  hugeRetryAfter: {
    fault: '429, Retry-After 99999999',
    config: { rateLimit: { maxWaitSeconds: HOSTILE_WAIT_S } },
    recoveryBudgetMs: HOSTILE_WAIT_S * 1000 + DEFAULT_RECOVERY_MS,
    pausedUntil: (answer) => answer.at + HOSTILE_WAIT_S * 1000,
    begin: (r) => void r.mock.faults.rateLimit(1000, { retryAfter: 99_999_999 }),
    end: clear,
  },
  unreadableMissing: unreadable('missing'),
  unreadableNull: unreadable('null'),
  unreadableEmpty: unreadable('empty'),
  unreadableRenamed: unreadable('renamed'),
  hugeBody: {
    fault: 'huge body (400 MB)',
    begin: (r) => void r.mock.faults.hugeBody(),
    end: clear,
  },
  endlessPages: {
    fault: 'endless pages (has_more always true)',
    answers: 'all',
    begin: (r) => void r.mock.faults.endless(),
    end: clear,
  },
  keyEcho: {
    fault: 'error page echoing the credentials',
    begin: (r) => void r.mock.faults.echoCredentials(),
    end: clear,
  },
} satisfies Record<string, Omit<FaultRow, 'onError'>>;

/** Member records whose `gameLicense` cannot be read: an outage for the licenses asked. */
function unreadable(how: UnreadableLicense): Omit<FaultRow, 'onError'> {
  return {
    fault: `unreadable member record (gameLicense ${how === 'empty' ? '""' : how})`,
    // A license asked for in the same request as an unreadable record may be its owner: it follows
    // the policy, or is "not on the roster" when it was asked for alone.
    mayAnswer: true,
    begin: (r) => void r.mock.faults.unreadableMembers(how),
    end: clear,
  };
}

/**
 * The service is down when the resource starts: it is stopped (saving its snapshot), the service's
 * port closed, the snapshot kept or removed, and the resource started against the closed port.
 * Players online stay connected across the restart. The fault ends when the service listens again.
 */
function unreachable(withSnapshot: boolean): Omit<FaultRow, 'onError'> {
  return {
    fault: `unreachable at start, ${withSnapshot ? 'with' : 'no'} snapshot`,
    knownDuringFault: withSnapshot,
    // The catalog never loaded: the first joins also wait for it, in the background lane.
    recoveryBudgetMs: 10_000,
    begin: async (rig) => {
      rig.server.stopResource('roster');
      await rig.serviceDown();
      if (!withSnapshot) rmSync(join(rig.folder, 'roster-snapshot.json'), { force: true });
      rig.server.startResource('roster', rig.folder);
    },
    end: (rig) => rig.serviceUp(),
  };
}

const row = (name: keyof typeof faults, onError: OnError, knownBugs?: FaultRow['knownBugs']): FaultRow => ({
  ...faults[name],
  onError,
  ...(knownBugs ? { knownBugs: { ...(faults[name] as Partial<FaultRow>).knownBugs, ...knownBugs } } : {}),
});
/** `cached` for every fault; `allow` and `deny` on a few, among them one that suspends the key. */
export const FAULT_ROWS: readonly FaultRow[] = [
  ...(Object.keys(faults) as (keyof typeof faults)[]).map((name) => row(name, 'cached')),
  row('burst503', 'allow'),
  row('hang', 'allow'),
  row('teapot', 'allow'),
  row('revoked', 'allow'),
  row('internal', 'deny'),
  row('malformed', 'deny'),
  row('retryAfter', 'deny'),
  row('unreachableBare', 'deny'),
  row('planLost', 'deny'),
  row('hugeRetryAfter', 'allow'),
  row('unreadableMissing', 'allow'),
  row('unreadableRenamed', 'deny'),
  row('hugeBody', 'deny'),
  row('keyEcho', 'deny'),
];
