import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { UnreadableLicense } from '../../../dev/mock-roster/faults';
import type { RosterRig } from './roster-rig';
import { type MatrixRow, rowsOf, type SharedFault, sharedFault } from './rows';

/** One fault of the roster service, with the mirror off: joins looked up one by one. */
export interface FaultRow extends MatrixRow<RosterRig> {
  /** Config merged over the scaled-down base (e.g. a longer `api.timeoutMs`). */
  config?: { api?: { timeoutMs: number }; rateLimit?: { maxWaitSeconds: number } };
  /** Serve the row through the teapot proxy. */
  proxy?: boolean;
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
}

/** The suspension re-check runs once a minute (not configurable): recovery can take that long. */
const MINUTE_AND_MARGIN = 66_000;

const clear = (rig: RosterRig) => void rig.mock.faults.clear();
const shared = (name: SharedFault, fault: string) =>
  sharedFault(name, fault, (rig: RosterRig) => rig.mock.faults);

const faults = {
  burst502: {
    fault: '502 burst (proxy page)',
    begin: (r) => void r.mock.faults.failNext(1000, 502),
    end: clear,
  },
  burst503: shared('burst503', '503 burst (proxy page)'),
  blip503: {
    fault: '503 ×2 (retries absorb it)',
    mayAnswer: true,
    begin: (r) => void r.mock.faults.failNext(2, 503),
    end: clear,
  },
  internal: { fault: '500 `internal`', begin: (r) => void r.mock.faults.internal(), end: clear },
  hang: shared('hang', 'hang'),
  hangLong: {
    fault: 'hang, api.timeoutMs 60 s',
    config: { api: { timeoutMs: 60_000 } },
    begin: (r) => void r.mock.faults.hang(),
    end: clear,
  },
  drop: shared('drop', 'dropped connections'),
  malformed: shared('malformed', 'malformed JSON'),
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
  retryAfter: shared('retryAfter', '429, Retry-After 2'),
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
  farReset: shared('farReset', '429, X-RateLimit-Reset 9999999999 (year 2286)'),
  farResetDelta: shared('farResetDelta', '429, X-RateLimit-Reset 999999999 (31-year delta)'),
  hugeRetryAfter: shared('hugeRetryAfter', '429, Retry-After 99999999'),
  unreadableMissing: unreadable('missing'),
  unreadableNull: unreadable('null'),
  unreadableEmpty: unreadable('empty'),
  unreadableRenamed: unreadable('renamed'),
  hugeBody: shared('hugeBody', 'huge body (400 MB)'),
  endlessPages: shared('endlessPages', 'endless pages (has_more always true)'),
  keyEcho: shared('keyEcho', 'error page echoing the credentials'),
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

/** `cached` for every fault; `allow` and `deny` on a few, among them one that suspends the key. */
export const FAULT_ROWS: readonly FaultRow[] = rowsOf<FaultRow, keyof typeof faults>(faults, [
  ['burst503', 'allow'],
  ['hang', 'allow'],
  ['teapot', 'allow'],
  ['revoked', 'allow'],
  ['internal', 'deny'],
  ['malformed', 'deny'],
  ['retryAfter', 'deny'],
  ['unreachableBare', 'deny'],
  ['planLost', 'deny'],
  ['hugeRetryAfter', 'allow'],
  ['unreadableMissing', 'allow'],
  ['unreadableRenamed', 'deny'],
  ['hugeBody', 'deny'],
  ['keyEcho', 'deny'],
]);
