import { RosterStore } from '../mock-roster/roster-store';
import { seedCommunity } from '../mock-roster/seed-community';
import { dayBudget } from './day-budget';
import { dutyReads } from './duty-reads';
import { firstReadChanges } from './first-read-changes';
import { fleetScenario } from './fleet';
import { coldFleetScenario } from './fleet-cold';
import { futureStamps } from './future-stamps';
import { hotPathInProcess, hotPathThroughExports } from './hot-path';
import { jobsStorm } from './jobs-storm';
import { loneLookup } from './lone-lookup';
import { heapPerMember, heapPerMirroredMember } from './memory';
import { mirrorFirstRead } from './mirror-first-read';
import type { Progress } from './progress';
import { queueStorm } from './queue-bench';
import { quietServer } from './quiet-server';
import { reconnectStorm } from './reconnect-storm';
import type { BenchResults } from './report';
import { restartScenario } from './restart-scenario';
import { shareFailoverScenario } from './share-failover';
import { shareFleetScenario } from './share-fleet';
import { shareSteadyScenario } from './share-steady';
import { snapshotSave } from './snapshot-save';
import { steadyStateNaive, steadyStateRoster } from './steady-state';
import { joinStormScenario } from './storm-scenario';
import { twoServersLong, twoServersOneKey } from './two-servers';

/** What one scenario adds to the results (groups such as `storm` or `mirror` are merged). */
export type PartialResults = Omit<Partial<BenchResults>, 'machine'>;

export interface Scenario {
  /** For `--only`. */
  name: string;
  label: string;
  /**
   * Counts requests only: runs side by side with the other such scenarios, after every scenario
   * that times something has run alone.
   */
  countsOnly?: boolean;
  run(progress: Progress): Promise<PartialResults>;
}

const storm = (
  progress: Progress,
  label: string,
  more: Partial<Parameters<typeof joinStormScenario>[1]> = {},
) => ({ players: 1_000, spanMs: 10_000, progress, label, mirror: 'off', ...more }) as const;

/** Every scenario of `npm run bench`, in the order a whole run takes them. */
export const SCENARIOS: readonly Scenario[] = [
  // In-process timings first, while the heap and the JIT are untouched by the emulator.
  {
    name: 'hot-path',
    label: 'hot path, in process',
    run: async () => {
      const store = new RosterStore(seedCommunity({ seed: 1, members: 200 }), 1, Date.now);
      return {
        hotPath: { typical: hotPathInProcess(store, 'typical'), mixed: hotPathInProcess(store, 'mixed') },
      };
    },
  },
  {
    name: 'memory',
    label: 'memory, 10,000 cached members',
    run: async () => ({ memory: heapPerMember(10_000) }),
  },
  {
    name: 'mirror-memory',
    label: 'memory, 10,000 mirrored members',
    run: async () => ({ mirror: { memory: heapPerMirroredMember(10_000) } }),
  },
  {
    name: 'snapshot-save',
    label: 'snapshot save, 50,000 mirrored members, frame lateness at 20 fps',
    run: async (progress) => ({ snapshotSave: await snapshotSave(progress) }),
  },
  { name: 'lone-lookup', label: 'lone lookup', run: async () => ({ loneLookup: await loneLookup() }) },
  {
    name: 'hot-path-exports',
    label: 'hot path, through exports',
    run: async () => ({ hotPath: { exports: await hotPathThroughExports() } }),
  },
  {
    name: 'storm',
    label: 'join storm, roster (mirror off) and naive gate',
    run: async (progress) => ({
      storm: {
        roster: await joinStormScenario('roster', storm(progress, 'join storm, roster, mirror off')),
        naive: await joinStormScenario('naive', storm(progress, 'join storm, naive gate')),
      },
    }),
  },
  {
    name: 'storm-permissions',
    label: 'join storm, roster with permissions on (mirror off)',
    run: async (progress) => ({
      stormPermissions: await joinStormScenario(
        'roster',
        storm(progress, 'join storm, permissions on', { permissions: 'on' }),
      ),
    }),
  },
  {
    name: 'jobs-storm',
    label: 'join storm with the Qbox stand-in, job sync off and on (mirror off)',
    run: async (progress) => ({ jobsStorm: await jobsStorm(progress) }),
  },
  {
    name: 'mirror-storm',
    label: 'join storm, roster, mirror on',
    run: async (progress) => ({
      mirror: {
        storm: await joinStormScenario('roster', storm(progress, 'join storm, mirror on', { mirror: 'on' })),
      },
    }),
  },
  {
    name: 'cold-storm',
    label: 'join storm right after a cold start, mirror on and off',
    run: async (progress) => {
      const cold = (mirror: 'on' | 'off') =>
        joinStormScenario('roster', storm(progress, `cold storm, mirror ${mirror}`, { mirror, cold: true }));
      return { mirror: { coldStorm: { on: await cold('on'), off: await cold('off') } } };
    },
  },
  {
    name: 'two-servers-cold',
    label: '2 servers × 2,000 joins in 60 s right after a cold start, own processes, mirror on and off',
    run: async (progress) => {
      const cold = (mirror: 'on' | 'off') =>
        coldFleetScenario({
          servers: 2,
          playersPerServer: 2_000,
          spanMs: 60_000,
          members: 4_000,
          mirror,
          label: `2 servers × 2,000 in 60 s, cold, mirror ${mirror}`,
          progress,
        });
      return { mirror: { twoServersCold: { on: await cold('on'), off: await cold('off') } } };
    },
  },
  {
    name: 'mirror-changes',
    label: 'changes during the first read, checked an audit interval and a pass later',
    run: async (progress) => ({ mirror: { changes: await firstReadChanges(2_000, progress) } }),
  },
  {
    name: 'future-stamps',
    label: 'audit entries stamped an hour ahead, then a suspension',
    run: async (progress) => ({ mirror: { futureStamps: await futureStamps(progress) } }),
  },
  {
    name: 'quiet',
    label: 'quiet server, mirror off',
    run: async () => ({ quiet: await quietServer('off') }),
  },
  {
    name: 'mirror-quiet',
    label: 'quiet server, mirror on',
    run: async () => ({ mirror: { quiet: await quietServer('on') } }),
  },
  {
    name: 'two-servers-long',
    label: 'two servers, 2 × 2,000 in 60 s, mirror off',
    run: async (progress) => ({ twoServersLong: await twoServersLong(progress) }),
  },
  {
    name: 'two-servers',
    label: 'two servers, one key, mirror off, and naive gate',
    run: async (progress) => ({
      twoServers: {
        roster: await twoServersOneKey('roster', progress),
        naive: await twoServersOneKey('naive', progress),
      },
    }),
  },
  {
    name: 'fleet-long',
    label: '4 servers × 500 joins in 60 s, own processes, mirror on',
    run: async (progress) => ({
      mirror: {
        fleetLong: await fleetScenario({
          servers: 4,
          playersPerServer: 500,
          spanMs: 60_000,
          members: 2_000,
          mirror: 'on',
          label: '4 servers × 500 in 60 s',
          progress,
        }),
      },
    }),
  },
  {
    name: 'fleet-dense',
    label: '4 servers × 1,000 joins in 30 s, own processes, mirror on',
    run: async (progress) => ({
      mirror: {
        fleetDense: await fleetScenario({
          servers: 4,
          playersPerServer: 1_000,
          spanMs: 30_000,
          members: 4_000,
          mirror: 'on',
          label: '4 servers × 1,000 in 30 s',
          progress,
        }),
      },
    }),
  },
  {
    name: 'share-fleet',
    label:
      '4 servers sharing one roster through MariaDB: cold start, 4 × 500 joins in 60 s, a follower restarting',
    run: async (progress) => ({
      share: await shareFleetScenario({
        servers: 4,
        playersPerServer: 500,
        spanMs: 60_000,
        members: 2_000,
        progress,
      }),
    }),
  },
  {
    name: 'share-failover',
    label: '4 servers sharing one roster: a suspension, the reader killed, the database down 60 s',
    run: async (progress) => ({ shareFailover: await shareFailoverScenario(4, progress) }),
  },
  {
    name: 'mirror-restart',
    label: 'restart, 1,000 known players reconnect, mirror on',
    run: async (progress) => ({ mirror: { restart: await restartScenario(1_000, progress) } }),
  },
  // Request counts only from here on: these run side by side.
  {
    name: 'queue-storm',
    label: 'join storm without and with ConnectQueue and priority rules (mirror off)',
    run: async (progress) => ({ queue: await queueStorm(progress) }),
  },
  {
    name: 'duty-reads',
    label: 'duty hours, 1,000 online players',
    countsOnly: true,
    run: async () => ({ queue: { duty: await dutyReads() } }),
  },
  {
    name: 'reconnect',
    label: 'reconnect storm, mirror off, and naive gate',
    countsOnly: true,
    run: async (progress) => {
      const options = { players: 200, rounds: 5, roundMs: 6_000, progress, mirror: 'off' } as const;
      const [roster, naive] = await Promise.all([
        reconnectStorm('roster', options),
        reconnectStorm('naive', options),
      ]);
      return {
        reconnect: {
          roster: roster.requests,
          naive: naive.requests,
          rosterWarmUp: roster.warmUpRequests,
          naiveWarmUp: naive.warmUpRequests,
          rosterWrong: roster.wrong,
          naiveWrong: naive.wrong,
        },
      };
    },
  },
  {
    name: 'steady',
    label: 'steady state (mirror off; audit feed off and on) and naive gate',
    countsOnly: true,
    run: async () => {
      const [roster, naive, audit, changes] = await Promise.all([
        steadyStateRoster({ players: 1_000, hours: 3 }),
        steadyStateNaive({ players: 1_000, scale: 100, cycles: 2 }),
        steadyStateRoster({ players: 1_000, hours: 3, auditFeed: true }),
        steadyStateRoster({ players: 1_000, hours: 2, auditFeed: true, changesPerHour: 12 }),
      ]);
      return { steady: { roster, naive, audit, changes } };
    },
  },
  {
    name: 'mirror-steady',
    label: 'steady state, mirror and audit feed on',
    countsOnly: true,
    run: async () => ({
      mirror: { steady: await steadyStateRoster({ players: 1_000, hours: 6, mirror: true }) },
    }),
  },
  {
    name: 'day-budget',
    label: "the key's day: 1, 2, 4 and 8 servers on one key, a virtual day each",
    countsOnly: true,
    run: async (progress) => ({ dayBudget: await dayBudget(progress) }),
  },
  {
    name: 'share-steady',
    label:
      'steady state, 4 servers × 1,000 online sharing one roster beside one server alone (10 min, scaled)',
    countsOnly: true,
    run: async (progress) => ({ shareSteady: await shareSteadyScenario(4, 1_000, progress) }),
  },
  {
    name: 'mirror-first-read',
    label: 'mirror first read, 5,000 members',
    countsOnly: true,
    run: async () => ({ mirror: { firstRead: await mirrorFirstRead(5_000) } }),
  },
];

const GROUPS = new Set(['storm', 'steady', 'twoServers', 'mirror', 'hotPath', 'queue']);

/** Later results on top of earlier ones; groups (`storm`, `mirror`, …) are merged one level deep. */
export function mergeResults(into: PartialResults, more: PartialResults): PartialResults {
  const merged: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(more)) {
    const before = merged[key];
    merged[key] = GROUPS.has(key) && before && value ? { ...before, ...value } : value;
  }
  return merged as PartialResults;
}
