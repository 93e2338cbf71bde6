import type { Progress } from './progress';
import { joinStormScenario, type StormResult } from './storm-scenario';
import { fixed, integer, type ResultRow } from './table';

/** Queue priority and duty hours in numbers: queue priority's cost at the door, duty hours' on duty. */
export interface QueueBenchResults {
  /** The same 1,000-join storm (mirror off), without and with ConnectQueue and priority rules. */
  storm?: { plain: StormResult; connectQueue: StormResult };
  /** The same with the roster mirror on (the default). */
  mirrorStorm?: { plain: StormResult; connectQueue: StormResult };
  duty?: DutyBenchResult;
}

export interface DutyBenchResult {
  onlinePlayers: number;
  /** Duty-sessions requests in each refresh interval observed. */
  requestsPerRefresh: number[];
  intervalSeconds: number;
  /** Members whose hours were known (every session read) after the last refresh. */
  knownAfterLast: number;
}

/** Sergeant+ LSPD first, then SAFR, then every admitted member: the example rules of docs/queue-and-duty.md. */
export const BENCH_PRIORITY = [
  { department: 'LSPD', minRank: 'Sergeant', power: 50 },
  { department: 'SAFR', power: 40 },
  { power: 10 },
];

/** The storm twice, alone: the resource on its own, then with ConnectQueue and the rules. */
export async function queueStorm(progress: Progress): Promise<QueueBenchResults> {
  const pair = async (mirror: 'on' | 'off') => {
    const base = { players: 1_000, spanMs: 10_000, progress, mirror } as const;
    const plain = await joinStormScenario('roster', {
      ...base,
      label: `join storm, mirror ${mirror}, no queue`,
    });
    const connectQueue = await joinStormScenario('roster', {
      ...base,
      label: `join storm, mirror ${mirror}, ConnectQueue + priority rules`,
      connectQueue: { priority: BENCH_PRIORITY },
    });
    return { plain, connectQueue };
  };
  return { storm: await pair('off'), mirrorStorm: await pair('on') };
}

export function queueRows(r: QueueBenchResults): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const [mirror, storm] of [
    ['off', r.storm],
    ['on', r.mirrorStorm],
  ] as const) {
    if (!storm) continue;
    const { plain, connectQueue } = storm;
    rows.push(
      {
        scenario: `join storm 1,000, mirror ${mirror}: ConnectQueue + priority (vs. without)`,
        metric: 'roster requests',
        roster: connectQueue.summary.requests,
        naive: plain.summary.requests,
        format: integer,
        target: { text: `≤ ${plain.summary.requests} (without)`, met: (v) => v <= plain.summary.requests },
      },
      ...['members', 'department-assignments'].map((endpoint) => ({
        scenario: `join storm 1,000, mirror ${mirror}: ConnectQueue + priority (vs. without)`,
        metric: `GET ${endpoint}`,
        roster: connectQueue.summary.byEndpoint[`GET /api/v1/${endpoint}`] ?? 0,
        naive: plain.summary.byEndpoint[`GET /api/v1/${endpoint}`] ?? 0,
        format: integer,
      })),
      {
        scenario: `join storm 1,000, mirror ${mirror}, with ConnectQueue`,
        metric: `placed with priority > 0 (of ${connectQueue.queue?.placed ?? 0} placed)`,
        roster: connectQueue.queue?.prioritized ?? 0,
        naive: null,
        format: integer,
      },
      {
        scenario: `join storm 1,000, mirror ${mirror}, with ConnectQueue (vs. without)`,
        metric: 'p99 decision',
        roster: connectQueue.summary.p99Ms,
        naive: plain.summary.p99Ms,
        format: (v) => `${Math.round(v).toLocaleString('en-US')} ms`,
      },
    );
  }
  if (r.duty) {
    const worst = Math.max(0, ...r.duty.requestsPerRefresh);
    rows.push({
      scenario: `duty hours, ${r.duty.onlinePlayers.toLocaleString('en-US')} online, every ${r.duty.intervalSeconds} s`,
      metric: `duty-sessions requests per refresh, worst of ${r.duty.requestsPerRefresh.length} (${r.duty.requestsPerRefresh.join(', ')}); ${r.duty.knownAfterLast} known after the last`,
      roster: worst,
      naive: null,
      format: fixed(0),
      target: { text: '≤ 10', met: (v) => v <= 10 },
    });
  }
  return rows;
}
