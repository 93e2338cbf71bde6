import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RosterStore } from '../mock-roster/roster-store';
import { seedCommunity } from '../mock-roster/seed-community';
import { joinLatencyChart } from './chart';
import { repoRoot } from './gate-servers';
import { hotPathInProcess, hotPathThroughExports } from './hot-path';
import { loneLookup } from './lone-lookup';
import { describeMachine } from './machine';
import { heapPerMember } from './memory';
import { Progress } from './progress';
import { quietServer } from './quiet-server';
import { reconnectStorm } from './reconnect-storm';
import { type BenchResults, benchmarksMarkdown, CHART_FILE, resultRows } from './report';
import { steadyStateNaive, steadyStateRoster } from './steady-state';
import { joinStormScenario } from './storm-scenario';
import { renderTable } from './table';
import { twoServersLong, twoServersOneKey } from './two-servers';

// The memory scenario needs a full GC on demand: run again with --expose-gc.
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  const child = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}

const progress = new Progress();
const started = Date.now();
const step = async <T>(label: string, run: () => Promise<T> | T): Promise<T> => {
  progress.update(`${label}…`);
  const value = await run();
  progress.done(`${label}: done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return value;
};

// In-process timings first, while the heap and the JIT are untouched by the emulator.
const inProcess = await step('hot path, in process', () => {
  const store = new RosterStore(seedCommunity({ seed: 1, members: 200 }), 1, Date.now);
  return { typical: hotPathInProcess(store, 'typical'), mixed: hotPathInProcess(store, 'mixed') };
});
const memory = await step('memory, 10,000 cached members', () => heapPerMember(10_000));
const lone = await step('lone lookup', () => loneLookup());
const exportsPerSecond = await step('hot path, through exports', () => hotPathThroughExports());

const storm = {
  roster: await step('join storm, roster', () =>
    joinStormScenario('roster', { players: 1_000, spanMs: 10_000, progress, label: 'join storm, roster' }),
  ),
  naive: await step('join storm, naive gate', () =>
    joinStormScenario('naive', { players: 1_000, spanMs: 10_000, progress, label: 'join storm, naive gate' }),
  ),
};
const stormPermissions = await step('join storm, roster with permissions on', () =>
  joinStormScenario('roster', {
    players: 1_000,
    spanMs: 10_000,
    progress,
    label: 'join storm, permissions on',
    permissions: 'on',
  }),
);
const quiet = await step('quiet server, roster', () => quietServer());
const twoServersLongResult = await step('two servers, 2 × 2,000 in 60 s, roster', () =>
  twoServersLong(progress),
);
const twoServers = {
  roster: await step('two servers, one key, roster', () => twoServersOneKey('roster', progress)),
  naive: await step('two servers, one key, naive gate', () => twoServersOneKey('naive', progress)),
};
// Request counts only from here on: these run side by side.
const [reconnectRoster, reconnectNaive, steadyRoster, steadyNaive, steadyAudit, dashboardChanges] =
  await step('reconnect storm and steady state (side by side)', () =>
    Promise.all([
      reconnectStorm('roster', { players: 200, rounds: 5, roundMs: 6_000, progress }),
      reconnectStorm('naive', { players: 200, rounds: 5, roundMs: 6_000, progress }),
      steadyStateRoster({ players: 1_000, hours: 3 }),
      steadyStateNaive({ players: 1_000, scale: 100, cycles: 2 }),
      steadyStateRoster({ players: 1_000, hours: 3, auditFeed: true }),
      steadyStateRoster({ players: 1_000, hours: 2, auditFeed: true, changesPerHour: 12 }),
    ]),
  );

const results: BenchResults = {
  machine: describeMachine(),
  storm,
  reconnect: {
    roster: reconnectRoster.requests,
    naive: reconnectNaive.requests,
    rosterWarmUp: reconnectRoster.warmUpRequests,
    naiveWarmUp: reconnectNaive.warmUpRequests,
    rosterWrong: reconnectRoster.wrong,
    naiveWrong: reconnectNaive.wrong,
  },
  steady: { roster: steadyRoster, naive: steadyNaive, audit: steadyAudit, changes: dashboardChanges },
  twoServers,
  twoServersLong: twoServersLongResult,
  stormPermissions,
  quiet,
  hotPath: { ...inProcess, exports: exportsPerSecond },
  memory,
  loneLookup: lone,
};

const table = renderTable(resultRows(results));
console.log(`\n${table}\n`);
writeFileSync(join(repoRoot, 'BENCHMARKS.md'), benchmarksMarkdown(results, table));
writeFileSync(
  join(repoRoot, CHART_FILE),
  joinLatencyChart(
    [
      { label: 'roster (this resource)', color: '#1f6feb', samples: storm.roster.samples },
      { label: 'naive gate', color: '#d9730d', samples: storm.naive.samples },
    ],
    'Join storm: 1,000 players in 10 s, 120 requests/min, 50 ms service latency',
    2_000,
  ),
);
console.log(`Wrote BENCHMARKS.md and ${CHART_FILE} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
