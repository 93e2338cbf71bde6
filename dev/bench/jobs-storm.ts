import { join } from 'node:path';
import { startMockRoster } from '../mock-roster/server';
import { repoRoot, rosterReady, sleep, startGateServer } from './gate-servers';
import { runJoinStorm, type StormSummary, summarizeStorm } from './join-storm';
import { choosePlayers } from './population';
import type { Progress } from './progress';
import { SERVICE_LATENCY_MS } from './storm-scenario';

/** A Qbox mapping of the seeded community's departments (grades by name and nearest more junior). */
const DEPARTMENTS = {
  LSPD: { job: 'police', grades: { Cadet: 0, Officer: 1, Sergeant: 2, Lieutenant: 3, Chief: 4 } },
  SAFR: { job: 'ambulance' },
};
/** The Qbox stand-in's exports that write a job. */
const SET_JOB_CALLS = ['SetJob', 'AddPlayerToJob', 'RemovePlayerFromJob', 'SetPlayerPrimaryJob'];

export interface JobsStormRun {
  summary: StormSummary;
  /** Characters loaded (every admitted player loads one as it joins). */
  loads: number;
  /** Calls of the stand-in's set-job exports during the storm and until sync settled. */
  setJobCalls: number;
  /** Characters holding a managed job once sync settled. */
  managedHeld: number;
}

export interface JobsStormResult {
  off: JobsStormRun;
  on: JobsStormRun;
}

/**
 * The 1,000-join storm (mirror off) on a server running the Qbox stand-in, where every admitted
 * player loads a character as they join: once with job sync off, once on. Same mock, same players.
 */
export async function jobsStorm(
  progress: Progress,
  players = 1_000,
  spanMs = 10_000,
): Promise<JobsStormResult> {
  const off = await jobsStormRun(false, players, spanMs, progress);
  const on = await jobsStormRun(true, players, spanMs, progress);
  return { off, on };
}

async function jobsStormRun(
  sync: boolean,
  players: number,
  spanMs: number,
  progress: Progress,
): Promise<JobsStormRun> {
  const mock = await startMockRoster({ port: 0, members: 2_000, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const gate = await startGateServer('roster', mock, {
    config: { mirror: { enabled: false }, jobs: { enabled: sync, departments: DEPARTMENTS } },
    deferStart: true,
  });
  const { server } = gate;
  try {
    await server.startLuaResource('qbx_core', join(repoRoot, 'dev/frameworks/qbx_core'));
    gate.startGate();
    // A multicharacter resource: each player picks a character as they join.
    const multichar = server.createScriptResource('multichar');
    const qbx = () => multichar.exports.qbx_core!;
    let loads = 0;
    multichar.on('playerJoining', () => {
      const src = Number(multichar.global.source);
      loads++;
      qbx().Login!(src, `C${src}`);
    });
    await rosterReady(gate, mock);
    await sleep(3_000);
    const chosen = choosePlayers(mock.data, players);
    const mark = mock.counters.log.length;
    const label = `jobs storm, job sync ${sync ? 'on' : 'off'}`;
    const { samples, beganAt } = await runJoinStorm([server], chosen, {
      spanMs,
      onProgress: (decided, total) => progress.update(`${label}: ${decided}/${total} decided`),
    });
    await sleep(SERVICE_LATENCY_MS * 4);
    const summary = summarizeStorm(samples, mock, mark, beganAt);
    // Sync settles within a second of each load; give it that, then count.
    await sleep(2_000);
    const calls = qbx().StandInCalls!() as Record<string, number>;
    const setJobCalls = SET_JOB_CALLS.reduce((sum, name) => sum + (calls[name] ?? 0), 0);
    let managedHeld = 0;
    for (const sample of samples) {
      if (sample.id === null) continue;
      const job = (qbx().GetPlayer!(sample.id) as { PlayerData?: { job?: { name?: string } } } | null)
        ?.PlayerData?.job?.name;
      if (job === 'police' || job === 'ambulance') managedHeld++;
    }
    return { summary, loads, setJobCalls, managedHeld };
  } finally {
    gate.close();
    await mock.close();
  }
}
