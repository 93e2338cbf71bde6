import type { Lane, RequestExecutor } from '../../http';
import { gameLicense } from '../../platform/identifiers';
import type { Clock, Logger } from '../../platform/ports';
import type { LicenseClaims } from '../claimed-licenses';
import type { ApiAssignment, ApiMember, MemberLookup } from '../model';
import { fetchAssignments, fetchMembers, type MemberFound } from './fetch-members';
import { KeyBatcher } from './key-batcher';

/**
 * In a storm, small batches wait this long after their lane's previous request: a storm of 100
 * joins a second is then served in full batches of 100 licenses while the p99 wait stays well
 * under two seconds.
 */
export const LOOKUP_HOLD_MS = 1000;

/**
 * The hold of the join lane for a gate deadline: a fifteenth of it, at most `LOOKUP_HOLD_MS`
 * (reached at the default 15 s). A short deadline keeps its time for the request and the checks
 * after it; a player is never held for most of it.
 */
export function joinHoldMs(gateTimeoutMs: number): number {
  return Math.max(0, Math.min(LOOKUP_HOLD_MS, Math.floor(gateTimeoutMs / 15)));
}

export interface MemberLookupsOptions {
  executor: RequestExecutor;
  logger: Logger;
  clock: Clock;
  /** True while the limiter's budget runs low: small batches are then held whatever their spacing. */
  limiterBusy(lane: Lane): boolean;
  /** The join lane's hold (default `LOOKUP_HOLD_MS`). */
  joinHoldMs?: number;
  /**
   * Whether a joining member's departments are needed to decide (e.g. only when their status can
   * be admitted). Those members' assignments are asked for the moment their batch answers.
   */
  joinNeedsDepartments?(member: ApiMember): boolean;
  /** Told of each license the service lists for several members. */
  claims?: LicenseClaims;
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
  private readonly logger: Logger;

  private readonly joinNeedsDepartments: (member: ApiMember) => boolean;

  constructor(options: MemberLookupsOptions) {
    const { executor, logger, clock, limiterBusy } = options;
    this.logger = logger;
    this.joinNeedsDepartments = options.joinNeedsDepartments ?? (() => true);
    const acquire = (lane: Lane, signal: AbortSignal, front: boolean) =>
      executor.acquire(lane, signal, front);
    const holdMs = {
      join: options.joinHoldMs ?? LOOKUP_HOLD_MS,
      refresh: LOOKUP_HOLD_MS,
      background: LOOKUP_HOLD_MS,
    };
    this.members = new KeyBatcher({
      acquire,
      fetchBatch: async (licenses, lane) => {
        const found = await fetchMembers(executor, licenses, lane, logger, options.claims);
        if (lane === 'join') this.askAssignmentsNow(found);
        return found;
      },
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

  /**
   * A join batch's assignments go out the moment its members answer, at the front of the join
   * lane and in one request (merged with any other waiting), never held for a later batch.
   */
  private askAssignmentsNow(found: Map<string, MemberFound | Error>): void {
    for (const value of found.values()) {
      if (value instanceof Error || value.assignments !== null) continue;
      if (!this.joinNeedsDepartments(value.member)) continue;
      const asked = this.assignments
        .get(value.member.id, 'join', { urgent: true })
        .then((list) => list ?? []);
      // Whoever completes the record awaits this and hears of a failure; nobody else needs to.
      asked.catch(() => undefined);
      value.assignmentsAsked = asked;
    }
  }

  /** The member record holding `license` (assignments only if the service inlined them), or null. */
  member(license: string, lane: Lane): Promise<MemberFound | null> {
    const key = gameLicense(license);
    if (key === null) {
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
    const assignments =
      found.assignments ?? (await (found.assignmentsAsked ?? this.assignmentsOf(found.member.id, lane)));
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

  /**
   * Join lookups not sent yet, held to be merged into one request or waiting for its permit:
   * licenses, and the members whose assignments a join still needs.
   */
  joinsWaiting(): number {
    return this.members.waitingAhead('join') + this.assignments.waitingAhead('join');
  }

  close(): void {
    this.members.close();
    this.assignments.close();
  }
}
