import type { FleetResult } from './fleet';
import { p99Of } from './mirror-notes';
import { at, oneFrame, zero } from './mirror-report';
import type { ShareFailoverResult } from './share-failover';
import type { ShareFleetResult } from './share-fleet';
import type { ShareSteadyResult } from './share-steady';
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
  row(restart, 'requests while they joined (what for: below)', s.restart.joinRequests, null, integer, zero);
  row(restart, 'wrong decisions', s.restart.wrong, null, integer, zero);
  return rows;
}

/** A suspension, the reader killed, the database down: the fleet sharing through its failures. */
export function shareFailoverRows(f: ShareFailoverResult): ResultRow[] {
  const rows: ResultRow[] = [];
  const row = (
    scenario: string,
    metric: string,
    roster: number,
    format: ResultRow['format'],
    target?: ResultRow['target'],
  ) => rows.push({ scenario, metric, roster, naive: null, format, ...(target ? { target } : {}) });
  const audit = f.auditSeconds * 1_000;
  const bound = at(2 * audit + 2_000, ms);
  const fleet = `${f.servers} servers sharing, the audit log every ${f.auditSeconds} s`;
  row(
    fleet,
    'a dashboard suspension → refused at the next join on every server',
    f.suspension.everyServerMs,
    ms,
    bound,
  );
  const killed = `${fleet}: the reader's process killed (SIGKILL)`;
  row(killed, 'kill → a new reader', f.readerKilled.newReaderMs, ms, at(30_000, ms));
  row(
    killed,
    'a suspension made 2 s after the kill → refused on every server left',
    f.readerKilled.suspension.everyServerMs,
    ms,
    { text: 'honoured (not never)', met: (v) => Number.isFinite(v) },
  );
  const down = `${fleet}: MariaDB stopped ${integer(f.databaseDown.downMs / 1000)} s, ${integer(f.databaseDown.players)} joins meanwhile`;
  row(down, 'wrong decisions', f.databaseDown.wrong, integer, zero);
  row(down, '429s received', f.databaseDown.rateLimited, integer, zero);
  row(down, 'requests sent (all servers)', f.databaseDown.requests, integer);
  row(down, 'servers sharing again within 60 s of it coming back', f.databaseDown.backOn, integer, {
    text: `${f.servers - 1} (every server left)`,
    met: (v) => v === f.servers - 1,
  });
  return rows;
}

/** Requests per hour with players online: the fleet sharing beside one server alone. */
export function shareSteadyRows(r: ShareSteadyResult): ResultRow[] {
  const minutes = integer(r.windowMs / 60_000);
  const online = (c: ShareSteadyResult['shared']) => c.online.map((n) => integer(n)).join(' + ');
  const limit = r.alone.perHour * 1.2;
  return [
    {
      scenario: `steady state, default clocks, counted ${minutes} min and scaled to an hour: ${r.shared.servers} servers sharing (${online(r.shared)} online); one server alone (${online(r.alone)} online) in the second column`,
      metric: 'requests per hour for the fleet',
      roster: r.shared.perHour,
      naive: r.alone.perHour,
      format: integer,
      target: { text: `≤ 1.2 × one server's (${integer(limit)})`, met: (v) => v <= limit },
    },
  ];
}

/** What BENCHMARKS.md says under the sharing rows. */
export function shareNotes(s: ShareFleetResult): string[] {
  const endpoints = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([, a], [, b]) => b - a)
      .map(([endpoint, n]) => `${endpoint} ${n}`)
      .join(', ');
  return [
    `- **Sharing.** Each server of the fleet is its own process with the oxmysql stand-in on one
  database of one MariaDB (\`dev/mariadb\`), started before roster, and \`share.enabled\` with a
  \`share.serverName\` of its own; "one server alone" is today's resource without a database, timed
  from its fork as the fleet is. The restarted follower reaches the service through a counting
  proxy of its own, so its requests are told apart from the reader's on the same key.`,
    `- Sharing, cold start: ${endpoints(s.coldStart.byEndpoint)} (one server alone: ${endpoints(s.alone.byEndpoint)}).`,
    `- Sharing, cold start, each server's start → its mirror complete: ${s.mirrorMs.map((t, k) => `server-${k + 1}${k === s.readerIndex ? ' (reader)' : ''} ${integer(t)} ms`).join(', ')}.`,
    `- Sharing, the restarted follower asked the service: ${endpoints(s.restart.byEndpoint) || 'nothing'} before its mirror decided joins; ${endpoints(s.restart.joinEndpoints) || 'nothing'} while members joined it.`,
    ...s.status.map((line, k) => `- server-${k + 1}: \`${line.trim()}\``),
  ];
}

/** What the steady state's requests were for, the fleet's and one server's. */
export function shareSteadyNotes(r: ShareSteadyResult): string[] {
  const endpoints = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([, a], [, b]) => b - a)
      .map(([endpoint, n]) => `${endpoint} ${n}`)
      .join(', ');
  const minutes = integer(r.windowMs / 60_000);
  return [
    `- Sharing, steady state, the requests of ${minutes} min: the fleet ${endpoints(r.shared.byEndpoint) || 'none'}; one server alone ${endpoints(r.alone.byEndpoint) || 'none'}.`,
    `- Before that window, from the joins through one refresh interval (the duty hours' first read of each player who joined, once per player, each server its own): the fleet ${endpoints(r.shared.firstReads) || 'none'}; one server alone ${endpoints(r.alone.firstReads) || 'none'}.`,
  ];
}
