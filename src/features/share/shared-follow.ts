import type { AuditPosition } from '../audit/audit-feed';
import type { CopiedRows } from '../mirror/member-index';
import type { MirroredMember } from '../mirror/mirrored-member';
import { SHARED_PAGE_LIMIT, type SharedCursor, type SharedState } from './share-store';
import { COPY_FRESH_MS } from './share-timing';
import { memberOf, type Store } from './shared-record';

/** Pages of members read at most per follow (50,000 members): the rest at the next. */
const MAX_PAGES = 100;
/** What a reader's write may lag its audit read by, beyond two audit intervals. */
const HEARTBEAT_SLACK_MS = 5_000;

/** One read of the database: the state, and the members written since the cursor. */
export interface SharedRead {
  state: SharedState<AuditPosition>;
  /** Records put, members no longer held (as of their rows' read times), records the reader doubts. */
  rows: CopiedRows;
  /** Rows that could not be read, and were ignored. */
  unreadable: number;
  /** Where the next read goes on from. */
  next: SharedCursor;
  /** Every row above the cursor was read (not stopped at `MAX_PAGES`). */
  done: boolean;
}

/**
 * Reads the state, then the rows above `from`, at most `MAX_PAGES` pages of them. The state is
 * read first: every row of a version up to its own was committed before, and is read; none above
 * it is (one there was not written by a write that version counts, and must not move the cursor
 * past the rows that write will give it).
 */
export async function readShared(store: Store, from: SharedCursor): Promise<SharedRead> {
  const state = await store.state();
  if (state === null) throw new Error('the shared state row is missing');
  const put: MirroredMember[] = [];
  const removed: { id: string; readAt: number }[] = [];
  const doubted = new Set<string>();
  let unreadable = 0;
  let done = false;
  let cursor = from;
  for (let page = 0; page < MAX_PAGES && !done; page++) {
    const read = await store.membersSince(cursor, SHARED_PAGE_LIMIT, state.version);
    for (const row of read.rows) {
      if (row.record === null) removed.push({ id: row.memberId, readAt: row.readAt });
      else {
        put.push(memberOf(row.record, row.readAt));
        if (row.record.doubted) doubted.add(row.memberId);
      }
    }
    unreadable += read.unreadable;
    cursor = read.next;
    done = read.done;
  }
  return { state, rows: { put, removed, doubted }, unreadable, next: cursor, done };
}

/**
 * Whether a follower's copy may decide joins: the reader said its roster is complete, its lease
 * still runs, and the database was read just now (`syncedAt`, this server's time). `auditMs`
 * (`refresh.auditSeconds` in ms): the reader writes each time its audit feed reaches the end of
 * the log, and a copy whose reader has not written for two of these (and a few seconds) stops
 * deciding, as the reader's own mirror does; absent, not judged.
 */
export function copyInStep(
  state: SharedState<AuditPosition> | null,
  syncedAt: number | null,
  now: number,
  auditMs: number | undefined,
): boolean {
  if (state === null || syncedAt === null || !state.complete) return false;
  const since = now - syncedAt;
  if (since >= COPY_FRESH_MS || state.leaseUntil - state.now <= since) return false;
  if (auditMs === undefined) return true;
  return state.now - state.updatedAt + since < auditMs * 2 + HEARTBEAT_SLACK_MS;
}
