import type { Lane } from '../../http';
import type { Clock, Logger } from '../../platform/ports';
import { CREATED_AT, DUTY_SESSIONS, type DutyFields, STARTED_AT } from './duty-fields';
import { type DutyLedger, KEPT_DAYS } from './duty-ledger';
import { DUTY_BATCH, type FullRead, type MemberReads, planBatches } from './duty-read-plan';
import { type ListedSession, readListedSession } from './duty-session-record';

export { DUTY_BATCH, dutyBudget } from './duty-read-plan';

/**
 * How far before the last read the next one asks for sessions stored: one stamped a little before
 * it could be listed (a slow commit, the service's time known to the second) is still found;
 * reading one twice costs rows, not requests.
 */
const OVERLAP_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

export interface DutyReaderDeps {
  list(
    path: string,
    query: Record<string, string | readonly string[]>,
    lane: Lane,
    maxPages: number,
  ): Promise<unknown[]>;
  fields: DutyFields;
  ledger: DutyLedger;
  clock: Clock;
  logger: Logger;
  /** The service's time, which `createdAt` stamps are judged against; this server's clock without it. */
  serviceTime?: () => number;
}

/** What the last refresh did, for `roster doctor`. */
export interface DutyRefresh {
  at: number;
  /** Members whose read completed. */
  members: number;
  /** Of them, members read in full again because the audit log named their sessions. */
  reread: number;
  requests: number;
  sessions: number;
}

/**
 * Reads the duty sessions of the members online in batches of 100 (the member filter repeated),
 * spending at most the budget it is given per refresh. A member is read in full once (every
 * session that began in the window, by `startedAt`), then by what the service stored since the
 * last read (`createdAt.after`), so a session stored long after it began (a clock-in added by
 * staff, a CAD posting at clock-out) is found as soon as it is stored; a session still on duty is
 * listed again until it ends. A member the audit log names is read in full again, and a session
 * that read does not list is gone: edits and deletions are seen. When there are more batches than
 * the budget, those waiting longest go first; a batch cut short resumes at the next refresh.
 */
export class DutyReader {
  private readonly reads = new Map<string, MemberReads>();
  private turn = 0;
  last: DutyRefresh | null = null;

  constructor(private readonly deps: DutyReaderDeps) {}

  async refresh(online: readonly string[], budget: number): Promise<DutyRefresh> {
    const { ledger, clock } = this.deps;
    const here = new Set(online);
    for (const member of [...this.reads.keys()]) if (!here.has(member)) this.forget(member);
    const now = clock.now();
    ledger.prune(now);
    this.turn++;
    for (const member of here)
      if (!this.reads.has(member))
        this.reads.set(member, { storedAfter: null, due: this.turn, full: null, fullWanted: true });
    const done: DutyRefresh = { at: now, members: 0, reread: 0, requests: 0, sessions: 0 };
    const batches = planBatches(this.reads);
    for (const [i, batch] of batches.entries()) {
      if (done.requests >= budget) break;
      // Every batch gets a request before one batch takes a second page.
      const share = Math.max(1, budget - done.requests - (batches.length - i - 1));
      const read = batch.full
        ? await this.readFull(batch.members, share, now)
        : await this.readStored(batch.members, share, now);
      done.requests += read.pages;
      done.sessions += read.sessions;
      done.members += read.completed;
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

  private async readFull(members: string[], maxPages: number, now: number) {
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
    const { listed, pages, complete } = await this.list(members, STARTED_AT, after, maxPages);
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
        this.caughtUp(member, reads, full.began, now);
        completed++;
      } else if (lastStart !== null) full.startedAfter = Math.max(full.startedAfter, lastStart - 1);
    }
    return { pages, sessions: listed.length, completed, reread };
  }

  private async readStored(members: string[], maxPages: number, now: number) {
    const began = this.serviceNow();
    const after = Math.min(...members.map((member) => this.reads.get(member)!.storedAfter!));
    const { listed, pages, complete } = await this.list(members, CREATED_AT, after, maxPages);
    let lastStored: number | null = null;
    for (const session of listed) lastStored = Math.max(lastStored ?? session.stored, session.stored);
    for (const member of members) {
      const reads = this.reads.get(member)!;
      if (complete) this.caughtUp(member, reads, began, now);
      else if (lastStored !== null) reads.storedAfter = Math.max(reads.storedAfter!, lastStored - 1);
    }
    return { pages, sessions: listed.length, completed: complete ? members.length : 0, reread: 0 };
  }

  /**
   * Read up to `began`: the next read asks for what was stored since (a little before), and from
   * before the earliest session still on duty, so its end is seen; never from before the window.
   */
  private caughtUp(member: string, reads: MemberReads, began: number, now: number): void {
    const open = this.deps.ledger.openStoredSince(member);
    const from = Math.min(began - OVERLAP_MS, open === null ? began : open - 1);
    reads.storedAfter = Math.max(from, now - KEPT_DAYS * DAY_MS);
    reads.due = this.turn + 1;
  }

  /** One request's pages for `members`, sessions with `field` after `after`; keeps what it lists. */
  private async list(
    members: readonly string[],
    field: typeof STARTED_AT | typeof CREATED_AT,
    after: number,
    maxPages: number,
  ) {
    const { fields, ledger } = this.deps;
    const query: Record<string, string | readonly string[]> = {
      [fields.member]: members,
      [`${field}.after`]: new Date(after).toISOString(),
      ...(fields.sortable[field] ? { sort: field } : {}),
    };
    const items = await this.deps.list(DUTY_SESSIONS, query, 'background', maxPages);
    const wanted = new Set(members);
    const listed: ListedSession[] = [];
    for (const item of items) {
      const session = readListedSession(item, fields);
      if (session === null || !wanted.has(session.member)) continue;
      ledger.add(session.member, session.id, {
        start: session.start,
        end: session.end,
        stored: session.stored,
      });
      listed.push(session);
    }
    return {
      listed,
      pages: Math.max(1, Math.ceil(items.length / DUTY_BATCH)),
      // Full pages up to the budget: more may follow, read from the last one at the next refresh.
      complete: items.length < maxPages * DUTY_BATCH,
    };
  }

  private serviceNow(): number {
    return this.deps.serviceTime?.() ?? this.deps.clock.now();
  }
}
