import type { FirstReadChangesResult } from './first-read-changes';
import type { FleetJoins, FleetResult } from './fleet';
import type { ColdFleetResult } from './fleet-cold';
import type { FutureStampsResult } from './future-stamps';
import type { FirstReadResult } from './mirror-first-read';
import { mirrorShare, p99Of } from './mirror-notes';
import type { QuietServerResult } from './quiet-server';
import type { SteadyResult } from './report';
import type { RestartResult } from './restart-scenario';
import type { StormResult } from './storm-scenario';
import { bytes, fixed, integer, ms, type ResultRow } from './table';

/** The scenarios that measure the roster kept on the server. */
export interface MirrorResults {
  firstRead?: FirstReadResult;
  quiet?: QuietServerResult;
  storm?: StormResult;
  /** 4 servers × 500 joins in 60 s, each its own process. */
  fleetLong?: FleetResult;
  /** 4 servers × 1,000 joins in 30 s, each its own process. */
  fleetDense?: FleetResult;
  restart?: RestartResult;
  /** The join storm the moment the resource is up, its first read beside it: mirror on and off. */
  coldStorm?: { on: StormResult; off: StormResult };
  /** 2 servers × 2,000 joins in 60 s right after they start together, each its own process: mirror on and off. */
  twoServersCold?: { on: ColdFleetResult; off: ColdFleetResult };
  /** Suspensions, transfers and deletions while the first read runs, checked after an audit interval and a pass. */
  changes?: FirstReadChangesResult;
  /** Audit entries stamped an hour ahead, then a suspension. */
  futureStamps?: FutureStampsResult;
  steady?: SteadyResult;
  memory?: { bytesPerMember: number; structureBytes: number; members: number };
}

export const zero = { text: '0', met: (v: number) => v === 0 };
/** FXServer's frame at 20 a second: a decision from the mirror waits for the next one. */
const FRAME_MS = 50;
/**
 * Decided on the next frame: a player who connects just after one waits the whole frame, and then
 * the frame's own work (a few milliseconds) before the decision is out.
 */
const FRAME_WORK_MS = 5;
export const oneFrame = {
  text: `one frame (≤ ${FRAME_MS + FRAME_WORK_MS} ms)`,
  met: (v: number) => v <= FRAME_MS + FRAME_WORK_MS,
};
export const at = (limit: number, format: (v: number) => string) => ({
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
  if (m.coldStorm) rows.push(...coldStormRows(m.coldStorm));
  if (m.twoServersCold) rows.push(...coldFleetRows(m.twoServersCold));
  if (m.changes) {
    const c = m.changes;
    const made = Object.values(c.changes).reduce((sum, n) => sum + n, 0);
    const scenario = `${integer(made)} changes during the first read (${integer(c.members)} members), checked an audit interval and a pass later`;
    row(scenario, `wrong decisions (of ${integer(c.players)} joins)`, c.wrong, integer, { target: zero });
    row(scenario, 'of them wrongly admitted', c.wrongAdmits, integer);
    row(scenario, 'of them wrongly refused', c.wrongRefusals, integer);
  }
  if (m.futureStamps) {
    const f = m.futureStamps;
    const scenario = 'audit entries stamped an hour ahead, then suspensions';
    row(
      scenario,
      `suspension → every first try refused (tried for ${ms(f.triedMs)})`,
      f.refusedWithinMs,
      ms,
      {
        target: at(f.boundMs, ms),
      },
    );
    row(
      scenario,
      `suspended members admitted at their first try (of ${integer(f.tries)})`,
      f.admitted,
      integer,
    );
  }
  if (m.storm) rows.push(...stormRows(m.storm, naive));
  if (m.fleetLong) rows.push(...fleetRows(m.fleetLong, '500 joins in 60 s', 4_000));
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
      target: at(12, integer),
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
    },
    {
      scenario,
      metric: 'members (decided from the mirror): p99',
      roster: p99Of(s.samples, false),
      naive: null,
      format: ms,
      target: oneFrame,
    },
    {
      scenario,
      metric: 'strangers (looked up): p99',
      roster: p99Of(s.samples, true),
      naive: null,
      format: ms,
      target: at(1_200, ms),
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
        // The storm's strangers (a fifth) are always looked up: their batches are in the count.
        target: at(12, integer),
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

/**
 * The cold storm, mirror on beside mirror off (second column): the first read must cost the joins
 * nothing, so the target is mirror off's p99 and one frame more (the frame a timer may land in).
 */
function coldStormRows({ on, off }: { on: StormResult; off: StormResult }): ResultRow[] {
  const lookups = (s: StormResult) => s.summary.requests - mirrorShare(s.byKind);
  const scenario = 'join storm right after a cold start, mirror on (off in the second column)';
  const row = (
    metric: string,
    pick: (s: StormResult) => number,
    format: ResultRow['format'],
    target?: ResultRow['target'],
  ) => ({
    scenario,
    metric,
    roster: pick(on),
    naive: pick(off),
    format,
    ...(target ? { target } : {}),
  });
  return [
    row('p99 connect → decision', (s) => s.summary.p99Ms, ms, at(off.summary.p99Ms + FRAME_MS, ms)),
    row('p50 connect → decision', (s) => s.summary.p50Ms, ms),
    row('requests sent for the joins (lookups)', lookups, integer, at(30, integer)),
    row("requests sent, the first read's pages included", (s) => s.summary.requests, integer),
    row('429s received', (s) => s.summary.rateLimited, integer, zero),
    row('wrong decisions', (s) => s.summary.wrong, integer, zero),
  ];
}

/** Two servers starting together on one key and joins at once, mirror on beside mirror off (second column). */
function coldFleetRows({ on, off }: { on: ColdFleetResult; off: ColdFleetResult }): ResultRow[] {
  const players = integer(on.joins.summary.players / on.servers);
  const scenario = `${on.servers} servers × ${players} in 60 s, cold, one key, own processes, mirror on (off in the second column)`;
  const row = (
    metric: string,
    pick: (j: FleetJoins) => number,
    format: ResultRow['format'],
    target?: ResultRow['target'],
  ) => ({
    scenario,
    metric,
    roster: pick(on.joins),
    naive: pick(off.joins),
    format,
    ...(target ? { target } : {}),
  });
  return [
    row('p99 connect → decision', (j) => j.summary.p99Ms, ms, at(5_000, ms)),
    row('p50 connect → decision', (j) => j.summary.p50Ms, ms),
    row('429s received', (j) => j.summary.rateLimited, integer, zero),
    row('wrong decisions', (j) => j.summary.wrong, integer, zero),
    row('requests sent (all servers, first reads included)', (j) => j.summary.requests, integer),
    {
      scenario,
      metric: 'mirrors complete when the joins were over',
      roster: on.mirrorsCompleteAfter ?? 0,
      naive: null,
      format: integer,
    },
  ];
}

/**
 * A fleet's rows: its cold start (the first reads, with the mirror on), then its two rounds of
 * joins; `strangersTarget`, the p99 the strangers of the round with the key's minute clear are held to.
 */
function fleetRows(f: FleetResult, joins: string, strangersTarget?: number): ResultRow[] {
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
    const targeted = round === f.settled && f.mirror === 'on';
    row(scenario, 'p99 connect → decision', round.summary.p99Ms, ms);
    row(scenario, 'members: p99', p99Of(round.samples, false), ms, targeted ? oneFrame : undefined);
    row(
      scenario,
      'strangers (looked up): p99',
      p99Of(round.samples, true),
      ms,
      targeted && strangersTarget !== undefined ? at(strangersTarget, ms) : undefined,
    );
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
