import type { RequestExecutor } from '../api/request-executor';
import type { Lane } from '../limiter/lane';
import type { ApiAssignment, MemberLookup } from '../model';
import type { Clock, Logger } from '../ports';
import { fetchAssignments, fetchMembers, type MemberFound } from './fetch-members';
import { KeyBatcher } from './key-batcher';

const LICENSE = /^license:[0-9a-z]{1,128}$/;

/**
 * Under load, small batches wait this long after their lane's previous request: a storm is then
 * served in batches of ~75 licenses per request while the p99 wait stays under a second.
 */
export const LOOKUP_HOLD_MS = 750;

/**
 * The hold of the join lane for a gate deadline: a twentieth of it, at most `LOOKUP_HOLD_MS`
 * (reached at the default 15 s). A short deadline keeps its time for the request and the checks
 * after it; a player is never held for most of it.
 */
export function joinHoldMs(gateTimeoutMs: number): number {
  return Math.max(0, Math.min(LOOKUP_HOLD_MS, Math.floor(gateTimeoutMs / 20)));
}

/**
 * Members asked per assignments request: at ~1.2 assignments per member this keeps the answer
 * within one page of 100.
 */
export const MEMBERS_PER_ASSIGNMENTS_REQUEST = 75;

/**
 * Lookups by license in two coalesced, batched steps: the member records (enough to decide a
 * join on status), then the assignments of the members found, merged across batches.
 */
export class MemberLookups {
  private readonly members: KeyBatcher<MemberFound>;
  private readonly assignments: KeyBatcher<ApiAssignment[]>;

  constructor(
    executor: RequestExecutor,
    private readonly logger: Logger,
    clock: Clock,
    limiterBusy: (lane: Lane) => boolean,
    joinHold = LOOKUP_HOLD_MS,
  ) {
    const acquire = (lane: Lane, signal: AbortSignal) => executor.acquire(lane, signal);
    const holdMs = { join: joinHold, refresh: LOOKUP_HOLD_MS, background: LOOKUP_HOLD_MS };
    this.members = new KeyBatcher({
      acquire,
      fetchBatch: (licenses, lane) => fetchMembers(executor, licenses, lane, logger),
      param: 'gameLicense',
      clock,
      holdMs,
      limiterBusy,
    });
    this.assignments = new KeyBatcher({
      acquire,
      fetchBatch: (ids, lane) => fetchAssignments(executor, ids, lane, logger),
      param: 'memberId',
      clock,
      holdMs,
      limiterBusy,
      maxPerRequest: MEMBERS_PER_ASSIGNMENTS_REQUEST,
    });
  }

  /** The member record holding `license` (assignments only if the service inlined them), or null. */
  member(license: string, lane: Lane): Promise<MemberFound | null> {
    const key = license.trim().toLowerCase();
    if (!LICENSE.test(key)) {
      this.logger.debug(`Not a game license, so not on the roster: ${JSON.stringify(license.slice(0, 60))}`);
      return Promise.resolve(null);
    }
    return this.members.get(key, lane);
  }

  /** A member's assignments with their ranks. */
  async assignmentsOf(memberId: string, lane: Lane): Promise<ApiAssignment[]> {
    return (await this.assignments.get(memberId, lane)) ?? [];
  }

  /** The member holding `license` with their assignments, or null when not on the roster. */
  async lookup(license: string, lane: Lane): Promise<MemberLookup | null> {
    const found = await this.member(license, lane);
    if (found === null) return null;
    const assignments = found.assignments ?? (await this.assignmentsOf(found.member.id, lane));
    return { member: found.member, assignments };
  }

  /**
   * Many licenses at once (a refresh of online players); keyed by the licenses as given. A license
   * the service could not answer for is left out; when none could be answered, the first error is
   * thrown.
   */
  async lookupMany(licenses: readonly string[], lane: Lane): Promise<Map<string, MemberLookup | null>> {
    const settled = await Promise.allSettled(licenses.map((license) => this.lookup(license, lane)));
    const answers = new Map<string, MemberLookup | null>();
    settled.forEach((result, index) => {
      if (result.status === 'fulfilled') answers.set(licenses[index]!, result.value);
    });
    const failure = settled.find((result) => result.status === 'rejected');
    if (answers.size === 0 && failure) throw failure.reason;
    return answers;
  }

  /** Licenses waiting for a permit in `lane` and the lanes served before it. */
  waitingAhead(lane: Lane): number {
    return this.members.waitingAhead(lane);
  }

  close(): void {
    this.members.close();
    this.assignments.close();
  }
}
