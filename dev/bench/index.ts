import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RosterStore } from '../mock-roster/roster-store';
import { seedCommunity } from '../mock-roster/seed-community';
import { joinLatencyChart } from './chart';
import { repoRoot } from './gate-servers';
import { hotPathInProcess, hotPathThroughExports } from './hot-path';
import { describeMachine } from './machine';
import { Progress } from './progress';
import { type BenchResults, benchmarksMarkdown, CHART_FILE, resultRows } from './report';
import { joinStormScenario } from './storm-scenario';
import { renderTable } from './table';

const progress = new Progress();
const started = Date.now();
const step = async <T>(label: string, run: () => Promise<T> | T): Promise<T> => {
  progress.update(`${label}…`);
  const value = await run();
  progress.done(`${label}: done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return value;
};

// In-process timings first, while the heap and the JIT are untouched by the emulator.
const hotPathInProcessResult = await step('hot path, in process', () => {
  const store = new RosterStore(seedCommunity({ seed: 1, members: 200 }), 1, Date.now);
  return { typical: hotPathInProcess(store, 'typical'), mixed: hotPathInProcess(store, 'mixed') };
});

const results: BenchResults = {
  machine: describeMachine(),
  storm: {
    roster: await step('join storm, roster', () =>
      joinStormScenario('roster', { players: 1_000, spanMs: 10_000, progress, label: 'join storm, roster' }),
    ),
    naive: await step('join storm, naive gate', () =>
      joinStormScenario('naive', {
        players: 1_000,
        spanMs: 10_000,
        progress,
        label: 'join storm, naive gate',
      }),
    ),
  },
  hotPath: {
    ...hotPathInProcessResult,
    exports: await step('hot path, through exports', () => hotPathThroughExports()),
  },
};

const table = renderTable(resultRows(results));
console.log(`\n${table}\n`);
writeFileSync(join(repoRoot, 'BENCHMARKS.md'), benchmarksMarkdown(results, table));
writeFileSync(
  join(repoRoot, CHART_FILE),
  joinLatencyChart(
    [
      { label: 'roster (this resource)', color: '#1f6feb', samples: results.storm.roster.samples },
      { label: 'naive gate', color: '#d9730d', samples: results.storm.naive.samples },
    ],
    'Join storm: 1,000 players in 10 s, 120 requests/min, 50 ms service latency',
    2_000,
  ),
);
console.log(`Wrote BENCHMARKS.md and ${CHART_FILE} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
