import { randomUUID } from 'node:crypto';
import type { AuditPosition } from '../audit/audit-feed';
import type { SharedStart } from '../mirror/shared-copy';
import type { SharedState } from './share-store';

export type ShareRole = 'starting' | 'reader' | 'follower' | 'alone';

/**
 * How a lease holder is written: the server's name and this run's own mark, so two servers given
 * one name (the same `sv_projectName`) never both take the lease for one.
 */
const RUN_MARK = '~';

/** Who holds the lease when this server does: its name and this run's mark. */
export function runHolder(server: string): string {
  return `${server}${RUN_MARK}${randomUUID().slice(0, 8)}`;
}

/** The server's name of a lease holder, as the owner named it. */
export function readerName(holder: string | null): string | null {
  if (holder === null) return null;
  const mark = holder.lastIndexOf(RUN_MARK);
  return mark > 0 ? holder.slice(0, mark) : holder;
}

/** Nobody's lease runs, as of the state last read: any server may take it. */
export function leaseLapsed(state: SharedState<AuditPosition> | null): boolean {
  return state !== null && (state.reader === null || state.leaseUntil <= state.now);
}

/**
 * Where this server's mirror goes on reading from when it reads itself: where the last reader
 * left the log, when this copy holds every row it wrote (`caughtUp`); else nowhere known.
 */
export function leadFrom(state: SharedState<AuditPosition> | null, caughtUp: boolean): SharedStart | null {
  return state && caughtUp
    ? { audit: state.auditPosition, fullReadAt: state.fullReadAt, complete: state.complete }
    : null;
}
