import type { FleetResult } from './fleet';
import { p99Of } from './mirror-notes';
import { at, oneFrame, zero } from './mirror-report';
import type { ShareFleetResult } from './share-fleet';
import { integer, ms, type ResultRow } from './table';

/** A lease that works: exactly one server reads. */
const one = { text: '1', met: (v: number) => v === 1 };
/** Stragglers the joins are held to with the roster shared. */
const STRANGERS_P99_MS = 2_500;
/** The cold start may take this much longer than one server's alone. */
const COLD_START_SLACK_MS = 5_000;
/** And ask the service this much more than one server's first read. */
const COLD_START_REQUESTS = 1.1;

/**
 * The fleet sharing one roster through its database; the second column holds the same fleet
 * without sharing (`fleet-long`) when that ran too.
 */
export function shareRows(s: ShareFleetResult, withoutSharing?: FleetResult): ResultRow[] {
  const rows: ResultRow[] = [];
  const row = (
    scenario: string,
    metric: string,
    roster: number,
    naive: number | null,
    format: ResultRow['format'],
    target?: ResultRow['target'],
  ) => rows.push({ scenario, metric, roster, naive, format, ...(target ? { target } : {}) });
  const members = integer(s.members);
  const alone = `1 server alone, sharing off (${members} members)`;
  row(alone, 'requests until its mirror is complete', s.alone.requests, null, integer);
  row(alone, 'start → its mirror complete', s.alone.completeMs, null, ms);

  const cold = `${s.servers} servers start together, cold, sharing through one MariaDB (without: second column)`;
  const before = withoutSharing?.coldStart ?? null;
  const limit = Math.floor(s.alone.requests * COLD_START_REQUESTS);
  row(
    cold,
    'requests until every mirror is complete',
    s.coldStart.requests,
    before?.requests ?? null,
    integer,
    {
      text: `≤ 1.1 × one server's (${integer(limit)})`,
      met: (v) => v <= limit,
    },
  );
  row(
    cold,
    'start → every mirror complete',
    s.coldStart.completeMs,
    before?.completeMs ?? null,
    ms,
    at(s.alone.completeMs + COLD_START_SLACK_MS, ms),
  );
  row(cold, '429s received', s.coldStart.rateLimited, before?.rateLimited ?? null, integer, zero);
  row(cold, 'servers reading the roster (the others follow the database)', s.readers, null, integer, one);

  const joins = `${s.servers} servers × ${integer(s.joins.summary.players / s.servers)} in 60 s, sharing, mirrors complete, key's minute clear (without: second column)`;
  const settled = withoutSharing?.settled ?? null;
  row(
    joins,
    'members: p99',
    p99Of(s.joins.samples, false),
    settled ? p99Of(settled.samples, false) : null,
    ms,
    oneFrame,
  );
  row(
    joins,
    'strangers (looked up): p99',
    p99Of(s.joins.samples, true),
    settled ? p99Of(settled.samples, true) : null,
    ms,
    at(STRANGERS_P99_MS, ms),
  );
  row(joins, 'wrong decisions', s.joins.summary.wrong, settled?.summary.wrong ?? null, integer, zero);
  row(
    joins,
    '429s received',
    s.joins.summary.rateLimited,
    settled?.summary.rateLimited ?? null,
    integer,
    zero,
  );
  row(
    joins,
    'requests sent (all servers)',
    s.joins.summary.requests,
    settled?.summary.requests ?? null,
    integer,
  );

  const restart = 'a follower restarts while the shared roster is current';
  row(
    restart,
    'requests to the service before it decides joins from memory',
    s.restart.requests,
    null,
    integer,
    zero,
  );
  row(restart, 'start → its mirror decides joins', s.restart.holdsAfterMs, null, ms);
  row(restart, 'members joining it right after: p99', s.restart.membersP99Ms, null, ms, oneFrame);
  row(restart, 'requests for those joins', s.restart.joinRequests, null, integer, zero);
  row(restart, 'wrong decisions', s.restart.wrong, null, integer, zero);
  return rows;
}

/** What BENCHMARKS.md says under the sharing rows. */
export function shareNotes(s: ShareFleetResult): string[] {
  const endpoints = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([, a], [, b]) => b - a)
      .map(([endpoint, n]) => `${endpoint} ${n}`)
      .join(', ');
  return [
    `- Sharing, cold start: ${endpoints(s.coldStart.byEndpoint)} (one server alone: ${endpoints(s.alone.byEndpoint)}).`,
    `- Sharing, the restarted follower asked the service: ${endpoints(s.restart.byEndpoint) || 'nothing'}.`,
    ...s.status.map((line, k) => `- server-${k + 1}: \`${line.trim()}\``),
  ];
}
