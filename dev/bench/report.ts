import { type DayBudgetResults, dayBudgetNotes, dayBudgetRows } from './day-budget';
import type { JobsStormResult } from './jobs-storm';
import type { TimelineEntry } from './join-storm';
import { MIRROR_METHOD, mirrorFindings } from './mirror-notes';
import { type MirrorResults, mirrorRows } from './mirror-report';
import { type QueueBenchResults, queueRows } from './queue-bench';
import type { QuietServerResult } from './quiet-server';
import type { ShareFailoverResult } from './share-failover';
import type { ShareFleetResult } from './share-fleet';
import { shareFailoverRows, shareNotes, shareRows, shareSteadyNotes, shareSteadyRows } from './share-report';
import type { ShareSteadyResult } from './share-steady';
import { type SnapshotSaveResult, snapshotSaveRows } from './snapshot-save';
import type { StormResult } from './storm-scenario';
import { bytes, fixed, integer, ms, percent, perSecond, type ResultRow } from './table';

export const CHART_FILE = 'BENCHMARKS-join-latency.svg';
export const DAILY_BUDGET = 25_000;

export interface SteadyResult {
  requestsPerHour: number;
  onlinePlayers: number;
  /** Background refresh passes per hour. */
  refreshPasses: number;
  /** Requests per hour by endpoint. */
  byEndpoint: Record<string, number>;
  /** 429s per hour. */
  rateLimited: number;
  /** Dashboard change → `roster:playerUpdated`, virtual ms, when changes were made. */
  changeLatencyMs?: number[];
  /** Changes that never reached the player within the run. */
  changesMissed?: number;
  /** With the mirror on: the members it held at the end. */
  mirrorHeld?: number;
  /** With the mirror on: requests per hour by what they were for (`request-kinds.ts`). */
  byKind?: Record<string, number>;
}

export interface BenchResults {
  machine: string;
  /** The resource with the mirror off (every join looked up) and the naive gate. */
  storm?: { roster: StormResult; naive: StormResult };
  reconnect?: {
    roster: number;
    naive: number;
    rosterWarmUp: number;
    naiveWarmUp: number;
    rosterWrong: number;
    naiveWrong: number;
  };
  steady?: {
    roster: SteadyResult;
    naive: SteadyResult;
    /** The resource with the audit feed on (the key has audit:read), no changes. */
    audit?: SteadyResult;
    /** The resource with the audit feed on and dashboard changes to time. */
    changes?: SteadyResult;
  };
  twoServers?: { roster: StormResult; naive: StormResult };
  /** Two servers on one key, 2 × 2,000 joins in 60 s (the resource only). */
  twoServersLong?: StormResult;
  /** The roster storm again with roster principals granted (permissions on, ACL lines in server.cfg). */
  stormPermissions?: StormResult;
  quiet?: QuietServerResult;
  hotPath?: { typical?: number; mixed?: number; exports?: number };
  memory?: { bytesPerMember: number; structureBytes: number; members: number };
  loneLookup?: { addedMs: number; lookupMs: number; rawMs: number; memberAddedMs: number };
  /** The roster kept on the server. */
  mirror?: MirrorResults;
  /** Queue priority and duty hours. */
  queue?: QueueBenchResults;
  /** The join storm with the Qbox stand-in, every admitted player loading a character: job sync off and on. */
  jobsStorm?: JobsStormResult;
  /** The periodic snapshot save of the largest mirror it keeps, against 20 fps frames. */
  snapshotSave?: SnapshotSaveResult;
  /** N servers on one key, a virtual day each: what the key's day costs. */
  dayBudget?: DayBudgetResults;
  /** N servers on one key sharing one roster through the community's database. */
  share?: ShareFleetResult;
  /** The same fleet through a suspension, its reader killed and its database down. */
  shareFailover?: ShareFailoverResult;
  /** Requests per hour with players online: the fleet sharing beside one server alone. */
  shareSteady?: ShareSteadyResult;
}

/** What a whole run gives: every scenario ran. */
export type CompleteResults = BenchResults & {
  storm: NonNullable<BenchResults['storm']>;
  hotPath: { typical: number; mixed: number; exports: number };
};

/**
 * The audit feed beside today's refresh: the resource with the feed on in the roster column, the
 * resource without it (today's refresh alone) in the other.
 */
export function auditRows(steady: NonNullable<BenchResults['steady']>): ResultRow[] {
  const rows: ResultRow[] = [];
  const { audit, roster, changes } = steady;
  if (audit) {
    rows.push({
      scenario: 'steady state, mirror off, audit feed on (vs. off)',
      metric: 'per online player per hour',
      roster: audit.requestsPerHour / audit.onlinePlayers,
      naive: roster.requestsPerHour / roster.onlinePlayers,
      format: fixed(3),
      target: { text: '≤ 0.10', met: (v) => v <= 0.1 },
    });
  }
  const latencies = changes?.changeLatencyMs ?? [];
  if (changes && latencies.length > 0) {
    rows.push({
      scenario: 'dashboard change, audit feed on, mirror off',
      metric: `→ roster:playerUpdated, worst of ${latencies.length} (${changes.changesMissed ?? 0} missed)`,
      roster: Math.max(...latencies),
      naive: null,
      format: ms,
      target: { text: '≤ 75 s', met: (v) => v <= 75_000 && (changes.changesMissed ?? 0) === 0 },
    });
  }
  return rows;
}

/** The table's rows, with the targets the resource is held to. */
export function resultRows(r: BenchResults): ResultRow[] {
  const rows: ResultRow[] = [];
  if (r.storm) rows.push(...stormRows(r.storm, r.stormPermissions));
  rows.push(...laterRows(r));
  if (r.mirror) rows.push(...mirrorRows(r.mirror, r.storm?.naive));
  if (r.share) rows.push(...shareRows(r.share, r.mirror?.fleetLong));
  if (r.shareFailover) rows.push(...shareFailoverRows(r.shareFailover));
  if (r.shareSteady) rows.push(...shareSteadyRows(r.shareSteady));
  if (r.queue) rows.push(...queueRows(r.queue));
  if (r.jobsStorm) rows.push(...jobsStormRows(r.jobsStorm));
  if (r.snapshotSave) rows.push(...snapshotSaveRows(r.snapshotSave));
  if (r.dayBudget) rows.push(...dayBudgetRows(r.dayBudget));
  return rows;
}

/** Job sync on against off, in the naive column's place: what it costs the storm. */
function jobsStormRows({ off, on }: JobsStormResult): ResultRow[] {
  const scenario = 'join storm, Qbox stand-in, job sync on (off in the second column)';
  return [
    {
      scenario,
      metric: 'roster requests sent',
      roster: on.summary.requests,
      naive: off.summary.requests,
      format: integer,
      target: { text: `≤ ${integer(off.summary.requests)}`, met: (v) => v <= off.summary.requests },
    },
    {
      scenario,
      metric: 'framework set-job calls per character load',
      roster: on.loads === 0 ? 0 : on.setJobCalls / on.loads,
      naive: off.loads === 0 ? 0 : off.setJobCalls / off.loads,
      format: (v) => v.toFixed(2),
      target: { text: '≤ 1', met: (v) => v <= 1 },
    },
    {
      scenario,
      metric: `characters holding their roster job (of ${integer(on.loads)} loaded)`,
      roster: on.managedHeld,
      naive: off.managedHeld,
      format: integer,
    },
    {
      scenario,
      metric: 'set-job calls beyond one per character given a job',
      roster: on.setJobCalls - on.managedHeld,
      naive: null,
      format: integer,
      target: { text: '≤ 0', met: (v) => v <= 0 },
    },
    {
      scenario,
      metric: 'p99 connect → decision',
      roster: on.summary.p99Ms,
      naive: off.summary.p99Ms,
      format: ms,
      target: { text: `≤ ${ms(off.summary.p99Ms * 1.1)}`, met: (v) => v <= off.summary.p99Ms * 1.1 },
    },
    {
      scenario,
      metric: 'wrong decisions',
      roster: on.summary.wrong,
      naive: off.summary.wrong,
      format: integer,
      target: { text: '0', met: (v) => v === 0 },
    },
  ];
}

/** The join storm with the mirror off, beside the naive gate, and again with permissions on. */
function stormRows(s: NonNullable<BenchResults['storm']>, stormPermissions?: StormResult): ResultRow[] {
  const rows: ResultRow[] = [
    {
      scenario: 'join storm, mirror off',
      metric: 'requests sent',
      roster: s.roster.summary.requests,
      naive: s.naive.summary.requests,
      format: integer,
      target: { text: '≤ 30', met: (v) => v <= 30 },
    },
    {
      scenario: 'join storm, mirror off',
      metric: '429s received',
      roster: s.roster.summary.rateLimited,
      naive: s.naive.summary.rateLimited,
      format: integer,
      target: { text: '0', met: (v) => v === 0 },
    },
    {
      scenario: 'join storm, mirror off',
      metric: 'wrong decisions',
      roster: s.roster.summary.wrong,
      naive: s.naive.summary.wrong,
      format: integer,
      target: { text: '0', met: (v) => v === 0 },
    },
    {
      scenario: 'join storm, mirror off',
      metric: 'p50 connect → decision',
      roster: s.roster.summary.p50Ms,
      naive: s.naive.summary.p50Ms,
      format: ms,
    },
    {
      scenario: 'join storm, mirror off',
      metric: 'p99 connect → decision',
      roster: s.roster.summary.p99Ms,
      naive: s.naive.summary.p99Ms,
      format: ms,
      target: { text: '≤ 1,600 ms', met: (v) => v <= 1_600 },
    },
    {
      scenario: 'join storm, mirror off',
      metric: 'max connect → decision',
      roster: s.roster.summary.maxMs,
      naive: s.naive.summary.maxMs,
      format: ms,
      target: { text: '< 3,000 ms', met: (v) => v < 3_000 },
    },
  ];
  const full = s.roster.fullData;
  if (full) {
    rows.push(
      {
        scenario: 'join storm, mirror off',
        metric: 'requests until all admitted have full data',
        roster: full.requestsUntilComplete,
        naive: null,
        format: integer,
        target: { text: '≤ 22', met: (v) => v <= 22 },
      },
      {
        scenario: 'join storm, mirror off',
        metric: 'admitted without full data 1 s after last decision',
        roster: full.incompleteAfterLastDecision1s,
        naive: null,
        format: integer,
        target: { text: '0', met: (v) => v === 0 },
      },
      {
        scenario: 'join storm, mirror off',
        metric: 'p99 connect → full data',
        roster: full.p99ToCompleteMs,
        naive: null,
        format: ms,
      },
    );
  }
  if (stormPermissions) {
    const off = s.roster.summary;
    const on = stormPermissions.summary;
    rows.push(
      {
        scenario: 'join storm, permissions on, mirror off',
        metric: 'requests sent (off: the storm above)',
        roster: on.requests,
        naive: null,
        format: integer,
        target: { text: `= ${integer(off.requests)}`, met: (v) => v === off.requests },
      },
      {
        scenario: 'join storm, permissions on, mirror off',
        metric: 'p99 connect → decision',
        roster: on.p99Ms,
        naive: null,
        format: ms,
        target: { text: `≤ ${ms(off.p99Ms * 1.1)}`, met: (v) => v <= off.p99Ms * 1.1 },
      },
      {
        scenario: 'join storm, permissions on, mirror off',
        metric: 'wrong decisions',
        roster: on.wrong,
        naive: null,
        format: integer,
        target: { text: '0', met: (v) => v === 0 },
      },
    );
    const held = stormPermissions.principals;
    if (held) {
      rows.push({
        scenario: 'join storm, permissions on, mirror off',
        metric: `admitted players holding roster.member (of ${integer(held.admitted)})`,
        roster: held.holding,
        naive: null,
        format: integer,
        target: { text: 'all', met: (v) => v === held.admitted },
      });
    }
  }
  return rows;
}

/** Every other scenario from before the mirror, in the order of the table. */
function laterRows(r: BenchResults): ResultRow[] {
  const rows: ResultRow[] = [];
  if (r.quiet) {
    const q = r.quiet;
    rows.push(
      {
        scenario: 'quiet server, mirror off',
        metric: 'lone member join → decision',
        roster: q.loneMs,
        naive: null,
        format: ms,
        target: { text: '≤ 250 ms', met: (v) => v <= 250 },
      },
      {
        scenario: 'quiet server, mirror off',
        metric: `${q.sequence.count} one after another: p50`,
        roster: q.sequence.p50Ms,
        naive: null,
        format: ms,
        target: { text: '≤ 300 ms', met: (v) => v <= 300 },
      },
      {
        scenario: 'quiet server, mirror off',
        metric: `${q.sequence.count} one after another: max`,
        roster: q.sequence.maxMs,
        naive: null,
        format: ms,
        target: { text: '≤ 800 ms', met: (v) => v <= 800 },
      },
      {
        scenario: 'quiet server, mirror off',
        metric: 'first join right after start → decision',
        roster: q.firstAfterStartMs,
        naive: null,
        format: ms,
      },
      {
        scenario: 'quiet server, mirror off',
        metric: `admitted without full data at playerJoining (of ${q.admitted})`,
        roster: q.admitted - q.completeAtJoining,
        naive: null,
        format: integer,
        target: { text: '0', met: (v) => v === 0 },
      },
    );
  }
  if (r.reconnect) {
    rows.push({
      scenario: 'reconnect storm, mirror off',
      metric: 'requests sent',
      roster: r.reconnect.roster,
      naive: r.reconnect.naive,
      format: integer,
      target: { text: '< 10', met: (v) => v < 10 },
    });
    rows.push({
      scenario: 'reconnect storm, mirror off',
      metric: 'first connection, before the reconnects',
      roster: r.reconnect.rosterWarmUp,
      naive: r.reconnect.naiveWarmUp,
      format: integer,
    });
  }
  if (r.steady) {
    const { roster, naive } = r.steady;
    rows.push(
      {
        scenario: 'steady state, mirror off',
        metric: 'requests per simulated hour',
        roster: roster.requestsPerHour,
        naive: naive.requestsPerHour,
        format: integer,
      },
      {
        scenario: 'steady state, mirror off',
        metric: 'per online player per hour',
        roster: roster.requestsPerHour / roster.onlinePlayers,
        naive: naive.requestsPerHour / naive.onlinePlayers,
        format: fixed(3),
        target: { text: '< 0.25', met: (v) => v < 0.25 },
      },
      {
        scenario: 'steady state, mirror off',
        metric: 'share of daily budget (24 h)',
        roster: (roster.requestsPerHour * 24) / DAILY_BUDGET,
        naive: (naive.requestsPerHour * 24) / DAILY_BUDGET,
        format: percent,
      },
    );
    rows.push(...auditRows(r.steady));
  }
  if (r.twoServers) {
    rows.push({
      scenario: 'two servers, one key, mirror off',
      metric: '429s received',
      roster: r.twoServers.roster.summary.rateLimited,
      naive: r.twoServers.naive.summary.rateLimited,
      format: integer,
      target: { text: '0', met: (v) => v === 0 },
    });
    rows.push(
      {
        scenario: 'two servers, one key, mirror off',
        metric: 'requests sent (both)',
        roster: r.twoServers.roster.summary.requests,
        naive: r.twoServers.naive.summary.requests,
        format: integer,
      },
      {
        scenario: 'two servers, one key, mirror off',
        metric: 'wrong decisions',
        roster: r.twoServers.roster.summary.wrong,
        naive: r.twoServers.naive.summary.wrong,
        format: integer,
      },
      {
        scenario: 'two servers, one key, mirror off',
        metric: 'p99 connect → decision',
        roster: r.twoServers.roster.summary.p99Ms,
        naive: r.twoServers.naive.summary.p99Ms,
        format: ms,
      },
    );
  }
  if (r.twoServersLong) {
    rows.push(
      {
        scenario: 'two servers, 2 × 2,000 in 60 s, mirror off',
        metric: '429s received',
        roster: r.twoServersLong.summary.rateLimited,
        naive: null,
        format: integer,
        target: { text: '0', met: (v) => v === 0 },
      },
      {
        scenario: 'two servers, 2 × 2,000 in 60 s, mirror off',
        metric: 'p99 connect → decision',
        roster: r.twoServersLong.summary.p99Ms,
        naive: null,
        format: ms,
        target: { text: '≤ 5,000 ms', met: (v) => v <= 5_000 },
      },
      {
        scenario: 'two servers, 2 × 2,000 in 60 s, mirror off',
        metric: 'wrong decisions',
        roster: r.twoServersLong.summary.wrong,
        naive: null,
        format: integer,
        target: { text: '0', met: (v) => v === 0 },
      },
    );
  }
  if (r.hotPath?.typical !== undefined) {
    rows.push({
      scenario: 'hot path',
      metric: 'hasMinRank, in process',
      roster: r.hotPath.typical,
      naive: null,
      format: perSecond,
      target: { text: '> 5 M/s', met: (v) => v > 5_000_000 },
    });
  }
  if (r.hotPath?.exports !== undefined) {
    rows.push({
      scenario: 'hot path',
      metric: 'hasMinRank, through exports',
      roster: r.hotPath.exports,
      naive: null,
      format: perSecond,
    });
  }
  if (r.memory) {
    rows.push({
      scenario: 'memory',
      metric: `heap per cached member (${integer(r.memory.members)})`,
      roster: r.memory.bytesPerMember,
      naive: null,
      format: bytes,
      target: { text: '< 1,536 B', met: (v) => v < 1_536 },
    });
  }
  if (r.loneLookup) {
    rows.push({
      scenario: 'lone lookup',
      metric: 'time added to one round trip',
      roster: r.loneLookup.addedMs,
      naive: null,
      format: fixed(2, ' ms'),
      target: { text: '< 5 ms', met: (v) => v < 5 },
    });
  }
  return rows;
}

/** BENCHMARKS.md: how to run, the machine, the table, how each number is made, and what it shows. */
export function benchmarksMarkdown(r: CompleteResults, table: string): string {
  const roster = r.storm.roster.summary;
  const naive = r.storm.naive.summary;
  return `# Benchmarks

\`npm run bench\` builds the bundle and runs every scenario below in one go (about twenty minutes),
prints this table and rewrites this file and [\`${CHART_FILE}\`](${CHART_FILE}).
\`node .build/dev/bench.mjs --only <name>[,<name>…]\` (after \`npm run build\`) runs some of them and
prints their rows only; \`--list\` names them.

Machine: ${r.machine}.

${table}

"naive ÷ roster" is the naive gate's value divided by the resource's. "—": the naive gate has no
such thing (it has no rank exports and no client of its own), or a ratio would divide by zero.

![Join latency over the storm](${CHART_FILE})

## The two gates

- **roster** is \`dist/server.js\` exactly as shipped, installed in a temporary resource folder with
  its \`fxmanifest.lua\` (default \`config.json\`), started in the FXServer emulator (\`dev/emulator\`)
  with \`roster_api_key\` / \`roster_base_url\` convars. The emulator runs FXServer's 20 server frames
  a second, so every resource timer, \`setImmediate\` and \`setTimeout(…, 0)\` waits for the next
  frame (up to 50 ms), as on a real server; both gates pay it. Moving the emulator from a 1 ms
  tick to these frames, on the same code, moved every latency by one to a few frames per timer on
  the join path: a lone join from 0.14 s to 0.21 s and the storm's p99 from 0.9 s to 1.8 s (the
  old join path chained several timers: deferral updates, batching holds, limiter waits); joins
  one after another were set by the limiter's pacing (0.3–0.8 s apart) at either rate. The join
  path was then cut to the timers it needs, which gives the figures above.
- **mirror off / mirror on.** The resource keeps the whole roster on the server by default
  (\`mirror.enabled\`, see docs/internals.md; the mock's key has \`audit:read\`). Rows marked
  "mirror off" run it with \`mirror.enabled: false\`: every join is looked up per player, which is
  also what happens while a mirror's first read is under way, and what the naive gate is compared
  with.
- **join storm, permissions on** is the roster storm again with \`permissions.enabled\` and the two
  \`server.cfg\` lines that let the resource grant principals (and an owner's ACE on a rank), so every
  admitted member gets their principals before the gate admits them.
- **naive gate** is [\`dev/bench/naive-gate/server.js\`](dev/bench/naive-gate/server.js), a ~70-line JS
  resource loaded into the emulator the same way (its own \`fxmanifest.lua\`). It is built the way
  such gates usually are: on \`playerConnecting\` it defers, sends one
  \`GET /api/v1/members?gameLicense=…\` for the player, then (if a member came back) one
  \`GET /api/v1/department-assignments?memberId=…&include=rank\`; no batching, no coalescing, no
  limiter; a plain per-license TTL cache (300 s) of successful answers; any status other than 200
  counts as "not on the roster". \`test/dev/bench/naive-gate.test.ts\` proves that behaviour.
- Both talk to the mock roster service (\`dev/mock-roster\`) with the default key limits
  (120 requests per minute, 25,000 per day) and a 50 ms delay on every answer. Each scenario gets a
  fresh mock (seed 1, 2,000 members), so neither gate sees the other's requests.
- Truth is the mock's data: ACTIVE members must be admitted, everyone else refused (the resource's
  default \`gate.requireStatus\`). A player without a decision counts as a wrong decision.

## Scenarios and method

- **Join storm.** 1,000 distinct players connect, evenly spread over 10 s (a connection every 10 ms),
  in a fixed shuffled order: 800 members of the seeded roster (all statuses, ~82 % ACTIVE) and 200
  licenses the roster does not hold. Latency is measured on the host from \`connectPlayer\` to the
  deferral's outcome (admitted after \`playerJoining\`, or refused). Requests and 429s are counted from
  the mock's request log from the first connection to the last decision; the resource's start-up
  requests (whoami, departments, ranks) come before and are not counted, and the storm begins 3 s
  after them, as on a server that has been up a moment.
- **Reconnect storm.** 200 players (same mix) connect once, spread over 2 s; then each drops and
  reconnects 5 times, one round every 6 s (the last round ends ~32 s after the first connection, well
  within a minute). "requests sent" counts the five reconnect rounds; the first connection's requests
  are the next row.
- **Steady state (resource): the core on a virtual clock.** The resource's own \`RosterCatalog\`,
  \`MemberResolver\` and \`OnlinePlayers\`, roster client (\`createRosterApi\`, with its limiter and
  batcher), \`MemberCache\` and \`PlayerRegistry\`,
  default config, imported from \`src/\`, with 1,000 players online (same mix). The clock
  (\`dev/bench/virtual-clock.ts\`) stands still while a request is in flight (an undici Pool that
  counts them) and jumps to the next timer once everything is idle, so an hour takes seconds and no
  limiter wait is cut short. The mock's rate-limit windows follow the same clock; answers still take
  50 ms of real time. Work is scheduled exactly as \`src/features/players/refresh.ts\` does it
  (\`Schedule\`: refresh every \`refresh.intervalSeconds\` = 300 s ± 10 %, departments and ranks every
  30 min ± 10 %, seeded jitter). The players' joins and two minutes after them are not counted; then
  three hours are, and the table shows their average per hour.
- **Steady state (naive gate): time scaled.** The naive gate's refresh re-checks every online
  player every 300 s; here every 3 s (× 100) against a mock whose clock runs 100 × fast, so its
  per-minute limit applies per simulated minute. 1,000 players are online before the gate starts;
  two refresh cycles are counted and reported per simulated hour (12 cycles).
- **Full data.** A second resource in each emulated server (started after the roster resource, as
  a script that depends on it) reads \`exports.roster.getMember(source)\` synchronously in its own
  \`playerJoining\` handler; a player's data is complete when the member comes back with every
  department the mock holds for them. After the storm it polls every admitted player until all are
  complete: "requests until all admitted have full data" counts the mock's log from the first
  connection to that moment (not to the last decision).
- **Quiet server.** A fresh mock (50 ms answers) and the resource: the first member connects the
  moment the resource starts (its key check, departments and ranks are still on their way); after
  3 s a lone member joins; after 1 s ten members join one after another, each connecting as the
  one before is admitted. Every one of them is checked in full at \`playerJoining\`.
- **Two servers, 2 × 2,000 in 60 s.** The resource only: two emulated servers on one key, 4,000
  distinct players (mock seeded with 4,000 members) spread over 60 s, alternating servers.
- **Two servers, one key.** The join storm again, players alternating between two emulated
  FXServers (two \`FxServer\` instances, each with its own roster resource or naive gate) that share
  one key and one mock.
- **Hot path.** In process: \`RosterQueries.hasMinRank(view, 'LSPD', 'Sergeant')\` on a \`MemberView\`
  built by \`toMemberView\` for an LSPD Sergeant-or-above, imported straight from \`src/\`, after a JIT
  warm-up, for one second. Through exports: a JS resource in the emulator runs
  \`exports.roster.hasMinRank(id, 'LSPD', 'Sergeant')\` in a loop for a joined player (event,
  funcref and msgpack round trip per call, as in the emulator's FXServer rules); this number depends
  mostly on the emulator's export path, not on the resource.
- **Memory.** A \`MemberCache\` of the default size (50,000) created after a baseline, then filled with
  10,000 \`MemberView\`s built by \`toMemberView\` from records freshly parsed from JSON (so no string
  is shared with the mock's data), each keyed by its own copy of the license. Heap used plus
  ArrayBuffers (lru-cache keeps its bookkeeping in typed arrays) after three forced GCs
  (\`--expose-gc\`; the bench re-spawns itself with it), minus the baseline, divided by 10,000.
- **Lone lookup.** An idle client (\`createRosterApi\`, default pool) against the mock with no added
  latency and the key's limit lifted so the limiter never waits (its bookkeeping still runs):
  \`api.lookup(license)\` for a license not on the roster (one round trip) against a raw undici
  \`Pool.request\` to the same URL and \`JSON.parse\` of its body, interleaved, 200 samples each after
  20 warm-up rounds; the difference of the medians.

${MIRROR_METHOD}
## Findings

${findings(r)}

## Join storm request log (roster)

What the mock saw from the resource during the storm: arrival time after the first connection,
endpoint, how many licenses or member ids the request carried, status.

| at | endpoint | values | status |
|---:|---|---:|---:|
${r.storm.roster.summary.timeline.map(timelineRow).join('\n')}
${mirrorStormLog(r.mirror)}
Naive gate, for comparison: ${integer(naive.requests)} requests (${Object.entries(naive.byEndpoint)
    .map(([k, v]) => `${integer(v)} × ${k}`)
    .join(', ')}), ${integer(naive.rateLimited)} of them answered 429. The resource:
${integer(roster.requests)} requests (${Object.entries(roster.byEndpoint)
    .map(([k, v]) => `${integer(v)} × ${k}`)
    .join(', ')}).
`;
}

function endpoints(byEndpoint: Record<string, number>): string {
  return Object.entries(byEndpoint)
    .map(([k, v]) => `${integer(v)} × ${k}`)
    .join(', ');
}

function timelineRow(t: TimelineEntry): string {
  return `| ${integer(t.atMs)} ms | ${t.endpoint} | ${t.values} | ${t.status ?? 'in flight'} |`;
}

function findings(r: CompleteResults): string {
  const notes: string[] = [];
  const storm = r.storm.roster.summary;
  if (storm.p99Ms >= 2_000 || storm.maxMs >= 3_000)
    notes.push(stormLatencyFinding(storm.timeline, storm.p50Ms));
  if (r.hotPath.typical <= 5_000_000) {
    notes.push(
      `- **Hot path under target.** ${perSecond(r.hotPath.typical)} in process for the typical call.`,
    );
  }
  if (r.reconnect) {
    notes.push(
      `- **Reconnect storm.** ${integer(r.reconnect.roster)} requests for 1,000 reconnects (the cache answers
  members for 600 s and "not on the roster" for 60 s); the players' first connection cost
  ${integer(r.reconnect.rosterWarmUp)}. Wrong decisions over all rounds: ${integer(r.reconnect.rosterWrong)} (naive gate:
  ${integer(r.reconnect.naiveWrong)}, every 429 being a refusal of someone on the roster).`,
    );
  }
  if (r.steady?.audit) {
    const { audit, changes } = r.steady;
    notes.push(
      `- **Audit feed (side by side).** The same core and 1,000 players with the key's audit:read: the
  audit log is read every \`refresh.auditSeconds\` = 60 s and the full refresh becomes a safety net
  every 12 intervals (\`src/features/audit/refresh-plan.ts\`). The row "steady state, audit feed on (vs. off)"
  puts the resource with the feed in the roster column and the resource without it (today's refresh)
  in the other. ${integer(audit.requestsPerHour)} requests per hour (${endpoints(audit.byEndpoint)}).${
    changes
      ? ` With ${integer(changes.changeLatencyMs?.length ?? 0)} dashboard changes over two hours (the mock's audited dashboard;
  rank or status of a random online player) it is ${integer(changes.requestsPerHour)} per hour, and a change reaches
  \`roster:playerUpdated\` in at most ${ms(Math.max(0, ...(changes.changeLatencyMs ?? [])))} of simulated time.`
      : ''
  }`,
    );
  }
  if (r.steady) {
    const { roster, naive } = r.steady;
    notes.push(
      `- **Steady state.** ${roster.refreshPasses.toFixed(2)} refresh passes per hour (averaged over the simulated
  hours; a pass starts 300 s ± 10 % after the previous one *ended*; its ~21 requests fit in the
  limiter's burst, so a pass takes about a second), ${integer(roster.requestsPerHour)} requests per hour (${endpoints(roster.byEndpoint)}).
  A pass is ${fixed(1)((roster.byEndpoint['GET /api/v1/members'] ?? 0) / roster.refreshPasses)} members requests (100 licenses each) and
  ${fixed(1)((roster.byEndpoint['GET /api/v1/department-assignments'] ?? 0) / roster.refreshPasses)} assignments requests (75 members each, about 1.2 assignments per member, so one page
  of 100 each). That is
  ${(roster.requestsPerHour / roster.onlinePlayers).toFixed(3)} per player per hour against a target of 0.25: ${roster.requestsPerHour / roster.onlinePlayers < 0.25 ? 'met, but with little room' : 'not met'}
  (at exactly 12 passes per hour it would be ${fixed(3)((((roster.requestsPerHour - (roster.byEndpoint['GET /api/v1/departments'] ?? 0) - (roster.byEndpoint['GET /api/v1/ranks'] ?? 0)) / roster.refreshPasses) * 12) / roster.onlinePlayers)}). Sending
  assignments requests only for members whose record changed (\`updatedAt\`, which the API document
  does not promise), or getting them inline where the service offers it, would cut it. The naive gate: ${integer(naive.requestsPerHour)}
  requests per hour (${endpoints(naive.byEndpoint)}), ${integer(naive.rateLimited)} of them answered 429.`,
    );
  }
  if (r.twoServers) {
    const two = r.twoServers.roster;
    notes.push(
      `- **Two servers, one key.** ${integer(two.summary.rateLimited)} 429s, ${integer(two.summary.requests)} requests, at most
  ${integer(two.maxInRolling60s)} in any 60 s on the shared key (limit 120): each server keeps its own limiter and
  follows \`X-RateLimit-Remaining\`. Latency p50 ${ms(two.summary.p50Ms)}, p99 ${ms(two.summary.p99Ms)}, max
  ${ms(two.summary.maxMs)}.`,
    );
  }
  if (r.memory) {
    notes.push(
      `- **Memory.** ${bytes(r.memory.bytesPerMember)} per member at ${integer(r.memory.members)} members, of which the empty
  cache's own slots (lru-cache allocates all 50,000 up front) are ${bytes(r.memory.structureBytes / r.memory.members)} per member.`,
    );
  }
  if (r.loneLookup) {
    const l = r.loneLookup;
    notes.push(
      `- **Lone lookup.** Median ${fixed(2, ' ms')(l.lookupMs)} through the client against ${fixed(2, ' ms')(l.rawMs)} raw: ${fixed(2, ' ms')(l.addedMs)}
  added. For a member (members, then assignments) against two raw requests in a row:
  ${fixed(2, ' ms')(l.memberAddedMs)} added.`,
    );
  }
  notes.push(
    `- **Hot path with varied spellings.** Rotating the department between \`LSPD\`, \`dept_lspd\` and
  \`Los Santos Police Department\` and the rank between three names gives ${perSecond(r.hotPath.mixed)}
  (the typical call: ${perSecond(r.hotPath.typical)}). Departments and ranks are looked up by
  their exact spelling first; only another spelling (other case, spaces) is normalised with
  \`trim().toLowerCase()\`, which allocates.`,
  );
  if (r.mirror) notes.push(...mirrorFindings(r.mirror));
  if (r.dayBudget) notes.push(...dayBudgetNotes(r.dayBudget));
  if (r.share) notes.push(...shareNotes(r.share));
  if (r.shareSteady) notes.push(...shareSteadyNotes(r.shareSteady));
  return notes.join('\n');
}

/** The request log of the storm with the mirror on, when it ran. */
function mirrorStormLog(mirror: MirrorResults | undefined): string {
  const storm = mirror?.storm;
  if (!storm) return '';
  return `
## Join storm request log (roster, mirror on)

| at | endpoint | values | status |
|---:|---|---:|---:|
${storm.summary.timeline.map(timelineRow).join('\n')}
`;
}

/** Explains from the request log where the time of a slow storm went. */
function stormLatencyFinding(timeline: readonly TimelineEntry[], p50Ms: number): string {
  const members = timeline.filter((t) => t.endpoint === 'members');
  const firstFull = members.find((t) => t.values >= 50);
  const early = members.filter((t) => !firstFull || t.atMs < firstFull.atMs);
  const earlyLicenses = early.reduce((sum, t) => sum + t.values, 0);
  const assignments = timeline.filter((t) => t.endpoint.startsWith('department-assignments'));
  const full = members.filter((t) => t.values >= 90);
  const gaps = timeline.slice(1).map((t, i) => t.atMs - timeline[i]!.atMs);
  const steadyGap = gaps.length > 0 ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
  return `- **Join storm latency over target** (p50 ${ms(p50Ms)}). The request log at the end shows
  where it goes:
  1. *The burst goes to tiny batches.* The first ${early.length} members requests carry ${earlyLicenses} licenses
     between them (the first players, sent at once while the limiter's burst lasted); each then needs
     its own assignments request, and those go to the front of the lane, so every license arriving
     meanwhile waits behind ${early.length} near-empty assignments requests paced at the token rate (one every
     ${ms(steadyGap)}). The first full members request goes out only at ${firstFull ? ms(firstFull.atMs) : 'never'}.
  2. *No way to catch up.* From then on every batch costs two requests (members, then
     assignments: ${members.length} + ${assignments.length} in all) and the bucket gives one request per
     ${ms(steadyGap)}, so the resource checks at most 100 licenses per ${ms(steadyGap * 2)}: exactly the
     storm's arrival rate (100 players/s). ${full.length} of ${members.length} members requests were full (≥ 90
     licenses). The backlog built in step 1 is never worked off, so every player of the storm waits
     about as long as the first batched one (see the chart: a flat band, not a ramp).
  - What would fix it (in \`src/\`, not touched here): wait a few tens of milliseconds before sending a
    lone lookup when others are likely to follow, or let at most one small batch be in flight;
    decide the join on the members answer alone when \`gate.departments\` is empty (status is all the
    default gate needs) and fetch assignments afterwards in the refresh lane, which halves the join
    path's requests; merge the assignments of consecutive batches (up to 100 member ids) into one
    request.`;
}
