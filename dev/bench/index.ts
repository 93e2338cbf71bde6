import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { joinLatencyChart } from './chart';
import { dayBudgetNotes } from './day-budget';
import { FLEET_SERVER_FLAG } from './fleet-protocol';
import { runFleetServer } from './fleet-server';
import { repoRoot } from './gate-servers';
import { describeMachine } from './machine';
import { mirrorFindings } from './mirror-notes';
import { Progress } from './progress';
import { benchmarksMarkdown, CHART_FILE, type CompleteResults, resultRows } from './report';
import { mergeResults, type PartialResults, SCENARIOS, type Scenario } from './scenarios';
import { shareNotes, shareSteadyNotes } from './share-report';
import { renderTable } from './table';

// `node .build/dev/bench.mjs` runs every scenario and rewrites BENCHMARKS.md; `--only a,b` runs
// those alone and prints their rows; `--list` names them. The fleet scenario forks this same
// file with FLEET_SERVER_FLAG: that process is one game server, not a bench run.
if (process.argv.includes(FLEET_SERVER_FLAG)) runFleetServer();
else await main();

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, list: { type: 'boolean', default: false } },
  });
  if (values.list) {
    for (const s of SCENARIOS)
      console.log(`${s.name.padEnd(20)} ${s.label}${s.countsOnly ? ' (counts only)' : ''}`);
    return;
  }
  const chosen = values.only === undefined ? SCENARIOS : pick(values.only.split(','));
  // The memory scenarios need a full GC on demand: run again with --expose-gc.
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', ...process.execArgv, ...process.argv.slice(1)],
      {
        stdio: 'inherit',
      },
    );
    process.exit(child.status ?? 1);
  }
  const progress = new Progress();
  const started = Date.now();
  const step = async (scenario: Scenario): Promise<PartialResults> => {
    progress.update(`${scenario.label}…`);
    const value = await scenario.run(progress);
    progress.done(`${scenario.label}: done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    return value;
  };
  let results: PartialResults = {};
  for (const scenario of chosen.filter((s) => !s.countsOnly))
    results = mergeResults(results, await step(scenario));
  const together = await Promise.all(chosen.filter((s) => s.countsOnly).map(step));
  for (const more of together) results = mergeResults(results, more);

  const table = renderTable(resultRows({ machine: describeMachine(), ...results }));
  console.log(`\n${table}\n`);
  if (values.only !== undefined) {
    // What BENCHMARKS.md would say about the mirror scenarios that ran.
    if (results.mirror) console.log(`${mirrorFindings(results.mirror).join('\n')}\n`);
    if (results.dayBudget) console.log(`${dayBudgetNotes(results.dayBudget).join('\n')}\n`);
    if (results.share) console.log(`${shareNotes(results.share).join('\n')}\n`);
    if (results.shareSteady) console.log(`${shareSteadyNotes(results.shareSteady).join('\n')}\n`);
    return;
  }
  const complete = { machine: describeMachine(), ...results } as CompleteResults;
  writeFileSync(join(repoRoot, 'BENCHMARKS.md'), benchmarksMarkdown(complete, table));
  writeFileSync(
    join(repoRoot, CHART_FILE),
    joinLatencyChart(
      [
        { label: 'roster, mirror off', color: '#1f6feb', samples: complete.storm.roster.samples },
        ...(complete.mirror?.storm
          ? [{ label: 'roster, mirror on', color: '#1a7f37', samples: complete.mirror.storm.samples }]
          : []),
        { label: 'naive gate', color: '#d9730d', samples: complete.storm.naive.samples },
      ],
      'Join storm: 1,000 players in 10 s, 120 requests/min, 50 ms service latency',
      2_000,
    ),
  );
  console.log(`Wrote BENCHMARKS.md and ${CHART_FILE} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

function pick(names: readonly string[]): Scenario[] {
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`no scenario ${unknown.join(', ')}; --list names them`);
    process.exit(2);
  }
  return SCENARIOS.filter((s) => names.includes(s.name));
}
