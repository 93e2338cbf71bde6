import type { AuditFeedState } from './audit-feed';
import { aheadText } from './stamp-skew';

/**
 * What `roster doctor` says of the audit feed as it runs (the scope check says whether it can):
 * reading on time, paging through a backlog, failing or stopped, the gaps it could not read, and
 * the entries stamped too far ahead of the service's time.
 */
export function feedLines(state: AuditFeedState, now: number, refreshSeconds: number): string[] {
  const ago = (at: number) => `${Math.max(0, Math.round((now - at) / 1000))} s ago`;
  const refresh = `the refresh every ${refreshSeconds} s keeps online players current meanwhile`;
  const lines: string[] = [];
  if (!state.running) {
    lines.push(`! audit feed: stopped (the key cannot read the audit log); ${refresh}.`);
  } else if (state.failing) {
    lines.push(`! audit feed: reading the audit log fails; ${refresh}.`);
  } else if (state.caughtUpAt === null) {
    lines.push(
      `… audit feed: starting (${state.behind ? 'paging through a backlog' : 'first read not done yet'}).`,
    );
  } else if (!state.healthy) {
    lines.push(
      `! audit feed: behind, paging through a backlog of entries; it last reached the end of the log ${ago(state.caughtUpAt)}; ${refresh}.`,
    );
  } else {
    lines.push(`✓ audit feed: reading; it reached the end of the audit log ${ago(state.caughtUpAt)}.`);
  }
  if (state.lastGap) {
    lines.push(
      `! audit feed: ${state.gaps} gap${state.gaps === 1 ? '' : 's'} since start, the last ${ago(state.lastGap.at)} (${state.lastGap.reason}); the members this server holds were read again.`,
    );
  }
  if (state.skew) {
    const { entries, last } = state.skew;
    lines.push(
      `! audit feed: ${entries} entr${entries === 1 ? 'y' : 'ies'} stamped ahead of the service's clock since start, the last (${last.entry}) ${aheadText(last.aheadMs)} ahead, seen ${ago(last.at)}; acted on, but the log is still read from the service's time (its Date header).`,
    );
  }
  return lines;
}
