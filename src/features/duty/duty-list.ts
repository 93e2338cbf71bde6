import type { Lane } from '../../http';
import type { Clock, Logger } from '../../platform/ports';
import { type CREATED_AT, DUTY_SESSIONS, type DutyFields, type STARTED_AT } from './duty-fields';
import type { DutyLedger } from './duty-ledger';
import { DUTY_BATCH } from './duty-read-plan';
import { type ListedSession, readListedSession } from './duty-session-record';

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

/**
 * Where what the community stored since comes from at a refresh: this server's own read (alone,
 * or for every server on the key, carrying on from where the shared read stopped when given), or
 * the rows another server shared, which cover the members read since `coveredFrom`.
 */
export type CommunitySource = { own: true; carryOn?: number | null } | { own: false; coveredFrom: number };

/** What this server's community read listed: every session stored after `from`, up to `after`. */
export interface CommunityRead {
  from: number;
  /** Every session stored before this was listed (the next read starts here). */
  after: number;
  sessions: ListedSession[];
}

/** What the last refresh did, for `roster doctor`. */
export interface DutyRefresh {
  at: number;
  /** Members whose own read completed (in full, or what was stored for them since). */
  members: number;
  /** Of them, members read in full again because the audit log named their sessions. */
  reread: number;
  requests: number;
  sessions: number;
  /** This server's read of what the community stored since, when it sent one. */
  community: CommunityRead | null;
}

/**
 * One request's pages, sessions with `field` after `after`, for `members` (null: the whole
 * community); keeps what it lists for the members read here (`tracked`) and answers every session
 * listed.
 */
export async function listSessions(
  deps: Pick<DutyReaderDeps, 'list' | 'fields' | 'ledger'>,
  tracked: { has(member: string): boolean },
  members: readonly string[] | null,
  field: typeof STARTED_AT | typeof CREATED_AT,
  after: number,
  maxPages: number,
) {
  const { fields, ledger } = deps;
  const query: Record<string, string | readonly string[]> = {
    ...(members === null ? {} : { [fields.member]: members }),
    [`${field}.after`]: new Date(after).toISOString(),
    ...(fields.sortable[field] ? { sort: field } : {}),
  };
  const items = await deps.list(DUTY_SESSIONS, query, 'background', maxPages);
  const wanted = members === null ? tracked : new Set(members);
  const listed: ListedSession[] = [];
  for (const item of items) {
    const session = readListedSession(item, fields);
    if (session === null) continue;
    if (wanted.has(session.member))
      ledger.add(session.member, session.id, {
        start: session.start,
        end: session.end,
        stored: session.stored,
      });
    // A member's read keeps only its members (a service that ignores the filter adds none).
    if (members === null || wanted.has(session.member)) listed.push(session);
  }
  return {
    listed,
    pages: Math.max(1, Math.ceil(items.length / DUTY_BATCH)),
    // Full pages up to the budget: more may follow, read from the last one at the next refresh.
    complete: items.length < maxPages * DUTY_BATCH,
  };
}

/** The latest `createdAt` of the sessions listed; null for none. */
export function latestStored(listed: readonly ListedSession[]): number | null {
  let latest: number | null = null;
  for (const session of listed) latest = Math.max(latest ?? session.stored, session.stored);
  return latest;
}
