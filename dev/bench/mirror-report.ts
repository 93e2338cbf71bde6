import type { FleetJoins, FleetResult } from './fleet';
import type { FirstReadResult } from './mirror-first-read';
import type { QuietServerResult } from './quiet-server';
import type { SteadyResult } from './report';
import type { RestartResult } from './restart-scenario';
import type { StormResult } from './storm-scenario';
import { bytes, fixed, integer, ms, type ResultRow } from './table';

/** The scenarios that measure the roster kept on the server (CONTRACT.md section 14). */
export interface MirrorResults {
  firstRead?: FirstReadResult;
  quiet?: QuietServerResult;
  storm?: StormResult;
  /** 4 servers × 500 joins in 60 s, each its own process. */
  fleetLong?: FleetResult;
  /** 4 servers × 1,000 joins in 30 s, each its own process. */
  fleetDense?: FleetResult;
  restart?: RestartResult;
  steady?: SteadyResult;
  memory?: { bytesPerMember: number; structureBytes: number; members: number };
}

const zero = { text: '0', met: (v: number) => v === 0 };
const at = (limit: number, format: (v: number) => string) => ({
  text: `≤ ${format(limit)}`,
  met: (v: number) => v <= limit,
});

/** Said in a row's scenario when the mirror was not complete before the joins it measures. */
const complete = (yes: boolean) => (yes ? 'complete before' : 'NOT complete before');

/** The mirror's rows; `naive` is the naive gate's storm, beside the mirror's storm. */
export function mirrorRows(m: MirrorResults, naive?: StormResult): ResultRow[] {
  const rows: ResultRow[] = [];
  const row = (scenario: string, metric: string, roster: number, format: ResultRow['format'], more = {}) =>
    rows.push({ scenario, metric, roster, naive: null, format, ...more });
  if (m.firstRead) {
    const f = m.firstRead;
    const scenario = `mirror first read, ${integer(f.members)} members`;
    const limit = Math.ceil(f.members / 100) + Math.ceil(f.assignments / 100) + 5;
    row(
      scenario,
      `requests, start-up included (${integer(f.assignments)} assignments)`,
      f.requests,
      integer,
      {
        target: at(limit, integer),
      },
    );
    row(scenario, "the mirror's own, most in any 60 s", f.mirrorMaxIn60s, integer, {
      target: at(60, integer),
    });
    row(scenario, 'all requests, most in any 60 s', f.maxIn60s, integer);
    row(scenario, '429s received', f.rateLimited, integer, { target: zero });
    row(scenario, 'resource start → mirror complete', f.completeMs, ms);
  }
  if (m.quiet) {
    const q = m.quiet;
    const scenario = `quiet server, mirror on (${complete(q.mirrorCompleteBeforeJoins ?? false)})`;
    row(scenario, 'lone member join → decision', q.loneMs, ms);
    row(scenario, `${q.sequence.count} one after another: p50`, q.sequence.p50Ms, ms, {
      target: at(100, ms),
    });
    row(scenario, `${q.sequence.count} one after another: max`, q.sequence.maxMs, ms);
    row(scenario, `requests for the ${q.sequence.count + 1} joins`, q.joinRequests, integer, {
      target: zero,
    });
    row(
      scenario,
      `admitted without full data at playerJoining (of ${q.admitted})`,
      q.admitted - q.completeAtJoining,
      integer,
      {
        target: zero,
      },
    );
  }
  if (m.storm) rows.push(...stormRows(m.storm, naive));
  if (m.fleetLong) rows.push(...fleetRows(m.fleetLong, '500 joins in 60 s'));
  if (m.fleetDense) rows.push(...fleetRows(m.fleetDense, '1,000 joins in 30 s'));
  if (m.restart) {
    const r = m.restart;
    const scenario = `restart, ${integer(r.players)} known players reconnect (mirror ${complete(r.mirrorCompleteBeforeReconnects)})`;
    row(scenario, 'member requests until all have full data', r.memberRequests, integer, { target: zero });
    row(
      scenario,
      'member requests until the mirror is complete again',
      r.memberRequestsUntilMirror,
      integer,
      {
        target: zero,
      },
    );
    row(scenario, 'wrong decisions', r.summary.wrong, integer, { target: zero });
    row(scenario, 'p99 connect → decision', r.summary.p99Ms, ms);
  }
  if (m.steady) {
    const s = m.steady;
    row('steady state, mirror and audit feed on', 'requests per simulated hour', s.requestsPerHour, integer);
    row(
      'steady state, mirror and audit feed on',
      'per online player per hour',
      s.requestsPerHour / s.onlinePlayers,
      fixed(3),
      {
        target: at(0.08, fixed(2)),
      },
    );
  }
  if (m.memory) {
    row('memory', `heap per mirrored member (${integer(m.memory.members)})`, m.memory.bytesPerMember, bytes, {
      target: at(1_024, bytes),
    });
  }
  return rows;
}

function stormRows(s: StormResult, naive: StormResult | undefined): ResultRow[] {
  const scenario = `join storm, mirror on (${complete(s.mirror?.completeBeforeStorm ?? false)})`;
  const rows: ResultRow[] = [
    {
      scenario,
      metric: 'requests sent',
      roster: s.summary.requests,
      naive: naive?.summary.requests ?? null,
      format: integer,
      target: at(6, integer),
    },
    {
      scenario,
      metric: '429s received',
      roster: s.summary.rateLimited,
      naive: naive?.summary.rateLimited ?? null,
      format: integer,
      target: zero,
    },
    {
      scenario,
      metric: 'wrong decisions',
      roster: s.summary.wrong,
      naive: naive?.summary.wrong ?? null,
      format: integer,
      target: zero,
    },
    {
      scenario,
      metric: 'p50 connect → decision',
      roster: s.summary.p50Ms,
      naive: naive?.summary.p50Ms ?? null,
      format: ms,
    },
    {
      scenario,
      metric: 'p99 connect → decision',
      roster: s.summary.p99Ms,
      naive: naive?.summary.p99Ms ?? null,
      format: ms,
      target: at(500, ms),
    },
  ];
  if (s.fullData) {
    rows.push(
      {
        scenario,
        metric: 'requests until all admitted have full data',
        roster: s.fullData.requestsUntilComplete,
        naive: null,
        format: integer,
        target: at(6, integer),
      },
      {
        scenario,
        metric: 'admitted without full data 1 s after last decision',
        roster: s.fullData.incompleteAfterLastDecision1s,
        naive: null,
        format: integer,
        target: zero,
      },
    );
  }
  if (s.mirror) {
    rows.push({
      scenario,
      metric: 'first read before it (2,000 members), requests',
      roster: s.mirror.firstReadRequests,
      naive: null,
      format: integer,
    });
  }
  return rows;
}

/** A fleet's rows: its cold start (the first reads, with the mirror on), then its two rounds of joins. */
function fleetRows(f: FleetResult, joins: string): ResultRow[] {
  const rows: ResultRow[] = [];
  const row = (
    scenario: string,
    metric: string,
    roster: number,
    format: ResultRow['format'],
    target?: ResultRow['target'],
  ) => rows.push({ scenario, metric, roster, naive: null, format, ...(target ? { target } : {}) });
  const cold = f.coldStart;
  if (cold) {
    const start = `${f.servers} servers start together, cold (${integer(cold.held[0] ?? 0)} members)`;
    row(start, 'requests until every mirror is complete', cold.requests, integer);
    row(start, 'most requests in any 60 s (key: 120 a minute)', cold.maxIn60s, integer, at(120, integer));
    row(start, '429s received', cold.rateLimited, integer, zero);
    row(start, 'start → every mirror complete', cold.completeMs, ms);
  }
  const rounds: [FleetJoins, string][] = [
    [
      f.settled,
      `mirror ${f.mirror === 'on' ? complete(f.settled.completeBeforeJoins) : 'off'}, key's minute clear`,
    ],
    [f.afterFirstReads, `${fixed(0)(f.afterFirstReads.afterMs / 1000)} s after the first reads`],
  ];
  for (const [round, when] of rounds) {
    const scenario = `${f.servers} servers × ${joins}, own processes, ${when}`;
    row(scenario, 'p99 connect → decision', round.summary.p99Ms, ms, at(1_000, ms));
    row(scenario, 'wrong decisions', round.summary.wrong, integer, zero);
    row(scenario, '429s received', round.summary.rateLimited, integer, zero);
    row(scenario, 'requests sent (all servers)', round.summary.requests, integer);
    row(
      scenario,
      'admitted without full data 1 s after last decision',
      round.fullData.incompleteAfterLastDecision1s,
      integer,
      zero,
    );
  }
  return rows;
}
