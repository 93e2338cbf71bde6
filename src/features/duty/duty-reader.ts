import { CREATED_AT, STARTED_AT } from './duty-fields';
import { KEPT_DAYS } from './duty-ledger';
import {
  type CommunityRead,
  type CommunitySource,
  type DutyReaderDeps,
  type DutyRefresh,
  latestStored,
  listSessions,
} from './duty-list';
import {
  type Batch,
  CARRY_ON_MS,
  type FullRead,
  type MemberReads,
  OVERLAP_MS,
  planBatches,
  unread,
} from './duty-read-plan';
import type { ListedSession } from './duty-session-record';

export type { CommunityRead, CommunitySource, DutyReaderDeps, DutyRefresh } from './duty-list';
export { DUTY_BATCH, dutyBudget, OVERLAP_MS } from './duty-read-plan';

const DAY_MS = 86_400_000;

type ReadResult = Pick<DutyRefresh, 'members' | 'reread' | 'requests' | 'sessions'>;

/**
 * Reads the duty sessions of the members online, spending at most the budget it is given per
 * refresh. A member is read in full once (every session that began in the window, by
 * `startedAt`, in batches of 100 with the member filter repeated). What was stored since (a
 * session stored long after it began: a clock-in added by staff, a CAD posting at clock-out) is
 * one read for the whole community, `createdAt.after` the last one with no member filter, kept
 * for the members online — or the rows another server shared from its own such read. A session
 * still on duty is listed again, its members by the member filter, until it ends. A member the
 * audit log names is read in full again, and a session that read does not list is gone: edits
 * and deletions are seen. When there are more batches than the budget, those waiting longest go
 * first; a batch cut short resumes at the next refresh.
 */
export class DutyReader {
  private readonly reads = new Map<string, MemberReads>();
  private turn = 0;
  /**
   * When this server's own community read is due (it goes first when it waited longest); null
   * before the first, which is due from the refresh after the first member was read.
   */
  private communityDue: number | null = null;
  last: DutyRefresh | null = null;

  constructor(private readonly deps: DutyReaderDeps) {}

  async refresh(
    online: readonly string[],
    budget: number,
    source: CommunitySource = { own: true },
  ): Promise<DutyRefresh> {
    const { ledger, clock } = this.deps;
    const here = new Set(online);
    for (const member of [...this.reads.keys()]) if (!here.has(member)) this.forget(member);
    const now = clock.now();
    ledger.prune(now);
    this.turn++;
    for (const member of here) if (!this.reads.has(member)) this.reads.set(member, unread(this.turn));
    const done: DutyRefresh = { at: now, members: 0, reread: 0, requests: 0, sessions: 0, community: null };
    const carryOn = source.own ? (source.carryOn ?? null) : null;
    const ownRead = source.own && this.communityFrom(now, carryOn) !== null;
    if (ownRead) this.communityDue ??= this.turn;
    const batches = planBatches(this.reads, {
      onDuty: (member) => ledger.openStoredSince(member) !== null,
      coveredFrom: source.own ? Number.NEGATIVE_INFINITY : source.coveredFrom,
      communityDue: ownRead ? this.communityDue : null,
    });
    for (const [i, batch] of batches.entries()) {
      if (done.requests >= budget) break;
      // Every batch gets a request before one batch takes a second page.
      const share = Math.max(1, budget - done.requests - (batches.length - i - 1));
      let read: ReadResult;
      if (batch.kind === 'community') {
        // From where the members' reads stand now: those read in full just now start later.
        const community = await this.readCommunity(this.communityFrom(now, carryOn)!, share);
        done.community = community.read;
        read = community;
      } else read = await this.readBatch(batch, share, now);
      done.requests += read.requests;
      done.sessions += read.sessions;
      done.members += read.members;
      done.reread += read.reread;
    }
    this.last = done;
    return done;
  }

  /** The audit log named these members' sessions: read them in full at their next turn. */
  reread(members: Iterable<string>): void {
    for (const member of members) {
      const reads = this.reads.get(member);
      if (!reads) continue;
      reads.fullWanted = true;
      reads.due = Math.min(reads.due, this.turn + 1);
    }
  }

  /** Entries of the audit log were lost: any member's sessions may have changed. */
  rereadEveryone(): void {
    this.reread([...this.reads.keys()]);
  }

  forget(member: string): void {
    this.reads.delete(member);
    this.deps.ledger.forget(member);
  }

  /**
   * Sessions another server listed in its community read, stored up to `after`: kept for the
   * members online here, whose stored sessions are then known up to `after` when they were known
   * from `coveredFrom` (the shared reads before reached them without a gap).
   */
  applyShared(sessions: readonly ListedSession[], coveredFrom: number, after: number | null): void {
    const { ledger } = this.deps;
    for (const session of sessions) {
      if (!this.reads.has(session.member)) continue;
      ledger.add(session.member, session.id, {
        start: session.start,
        end: session.end,
        stored: session.stored,
      });
    }
    if (after === null) return;
    for (const reads of this.reads.values())
      if (reads.storedAfter !== null && reads.storedAfter >= coveredFrom)
        reads.storedAfter = Math.max(reads.storedAfter, after);
  }

  /**
   * Where this server's community read starts: where the members' own reads stopped (the
   * earliest), or where the shared read stopped when that is earlier and recent; null when no
   * member has been read yet.
   */
  private communityFrom(now: number, carryOn: number | null): number | null {
    let from: number | null = null;
    for (const { storedAfter } of this.reads.values())
      if (storedAfter !== null) from = Math.min(from ?? storedAfter, storedAfter);
    if (from === null) return null;
    if (carryOn !== null && carryOn < from && carryOn >= from - CARRY_ON_MS) from = carryOn;
    return Math.max(from, now - KEPT_DAYS * DAY_MS);
  }

  private readBatch(batch: Batch, maxPages: number, now: number): Promise<ReadResult> {
    if (batch.kind === 'full') return this.readFull(batch.members, maxPages, now);
    if (batch.kind === 'stored') return this.readStored(batch.members, maxPages, now);
    return this.readOnDuty(batch.members, maxPages);
  }

  private async readFull(members: string[], maxPages: number, now: number): Promise<ReadResult> {
    const { ledger } = this.deps;
    const windowStart = now - KEPT_DAYS * DAY_MS;
    const fulls = new Map<string, FullRead>();
    for (const member of members) {
      const reads = this.reads.get(member)!;
      if (reads.full === null) {
        const unlisted = ledger.startedAfter(member, windowStart);
        reads.full = { startedAfter: windowStart, began: this.serviceNow(), unlisted };
        // Named again while this read is under way: another follows it.
        reads.fullWanted = false;
      }
      fulls.set(member, reads.full);
    }
    const after = Math.min(...[...fulls.values()].map((full) => full.startedAfter));
    const { listed, pages, complete } = await listSessions(
      this.deps,
      this.reads,
      members,
      STARTED_AT,
      after,
      maxPages,
    );
    let lastStart: number | null = null;
    for (const session of listed) {
      fulls.get(session.member)?.unlisted.delete(session.id);
      lastStart = Math.max(lastStart ?? session.start, session.start);
    }
    let completed = 0;
    let reread = 0;
    for (const [member, full] of fulls) {
      const reads = this.reads.get(member)!;
      if (complete) {
        for (const id of full.unlisted) ledger.remove(member, id);
        if (ledger.isKnown(member)) reread++;
        ledger.markKnown(member);
        reads.full = null;
        this.caughtUp(reads, full.began, now);
        completed++;
      } else if (lastStart !== null) full.startedAfter = Math.max(full.startedAfter, lastStart - 1);
    }
    return { requests: pages, sessions: listed.length, members: completed, reread };
  }

  /**
   * What was stored for members the community read does not cover, from where their reads
   * stopped — or from before their earliest session still on duty, so its end is seen too.
   */
  private async readStored(members: string[], maxPages: number, now: number): Promise<ReadResult> {
    const { ledger } = this.deps;
    const began = this.serviceNow();
    const after = Math.min(
      ...members.map((member) => {
        const open = ledger.openStoredSince(member);
        const stored = this.reads.get(member)!.storedAfter!;
        return open === null ? stored : Math.min(stored, open - 1);
      }),
    );
    const { listed, pages, complete } = await listSessions(
      this.deps,
      this.reads,
      members,
      CREATED_AT,
      after,
      maxPages,
    );
    const lastStored = latestStored(listed);
    for (const member of members) {
      const reads = this.reads.get(member)!;
      if (complete) this.caughtUp(reads, began, now);
      else if (lastStored !== null) reads.storedAfter = Math.max(reads.storedAfter!, lastStored - 1);
    }
    return { requests: pages, sessions: listed.length, members: complete ? members.length : 0, reread: 0 };
  }

  /**
   * The sessions of members on duty, listed again from the earliest one's stamp: a session's end
   * does not change when it was stored, so no read of what was stored since shows it.
   */
  private async readOnDuty(members: string[], maxPages: number): Promise<ReadResult> {
    const { ledger } = this.deps;
    const from = (member: string) => {
      const reads = this.reads.get(member)!;
      return reads.openAfter ?? (ledger.openStoredSince(member) ?? Number.POSITIVE_INFINITY) - 1;
    };
    const after = Math.min(...members.map(from));
    const { listed, pages, complete } = await listSessions(
      this.deps,
      this.reads,
      members,
      CREATED_AT,
      after,
      maxPages,
    );
    const lastStored = latestStored(listed);
    for (const member of members) {
      const reads = this.reads.get(member)!;
      // Cut short: a member whose earliest session on duty was not reached goes on from the last one listed.
      const reached = complete || lastStored === null || from(member) < lastStored - 1;
      reads.openAfter = reached ? null : lastStored - 1;
      if (reached) reads.due = this.turn + 1;
    }
    return { requests: pages, sessions: listed.length, members: 0, reread: 0 };
  }

  /** Everything the community stored after `from`, no member filter; kept for the members read here. */
  private async readCommunity(from: number, maxPages: number): Promise<ReadResult & { read: CommunityRead }> {
    const began = this.serviceNow();
    const { listed, pages, complete } = await listSessions(
      this.deps,
      this.reads,
      null,
      CREATED_AT,
      from,
      maxPages,
    );
    const lastStored = latestStored(listed);
    const after = complete ? began - OVERLAP_MS : lastStored === null ? from : Math.max(from, lastStored - 1);
    for (const reads of this.reads.values())
      if (reads.storedAfter !== null && reads.storedAfter >= from)
        reads.storedAfter = Math.max(reads.storedAfter, after);
    // Cut short, it stays due first: the rest is read at the next refresh.
    if (complete) this.communityDue = this.turn + 1;
    return {
      requests: pages,
      sessions: listed.length,
      members: 0,
      reread: 0,
      read: { from, after, sessions: listed },
    };
  }

  /** Read up to `began`: the next read asks for what was stored since, a little before; never before the window. */
  private caughtUp(reads: MemberReads, began: number, now: number): void {
    const from = Math.max(began - OVERLAP_MS, now - KEPT_DAYS * DAY_MS);
    reads.storedAfter = Math.max(reads.storedAfter ?? from, from);
    reads.due = this.turn + 1;
  }

  private serviceNow(): number {
    return this.deps.serviceTime?.() ?? this.deps.clock.now();
  }
}
