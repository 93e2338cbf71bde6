import type { FxServer } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import type { BenchPlayer } from './population';

/** One connection of a storm: when it started (ms after the storm began) and how it ended. */
export interface JoinSample {
  player: BenchPlayer;
  server: number;
  connectAtMs: number;
  /** Host `performance.now()` at connect and at the decision (null: none). */
  connectAt: number;
  decidedAt: number | null;
  /** Connect to decision; null when no decision came before the storm gave up. */
  latencyMs: number | null;
  admitted: boolean;
  /** The id the player joined with, to drop them later. */
  id: number | null;
}

export interface StormOptions {
  /** Connections are spread evenly over this span. */
  spanMs: number;
  /** A connection without a decision by then counts as undecided (a wrong decision). */
  giveUpMs?: number;
  onProgress?: (decided: number, total: number) => void;
}

/**
 * Connects every player once, spread evenly over `spanMs`, round-robin over `servers`, and
 * records each decision's latency as the player sees it (connect to admitted or refused).
 */
export async function runJoinStorm(
  servers: readonly FxServer[],
  players: readonly BenchPlayer[],
  options: StormOptions,
): Promise<{ samples: JoinSample[]; beganAt: number }> {
  const giveUpMs = options.giveUpMs ?? 30_000;
  const samples: JoinSample[] = [];
  let decided = 0;
  const begin = performance.now();
  const beganAt = Date.now();
  const all = players.map(
    (player, index) =>
      new Promise<void>((resolve) => {
        const offset = (index * options.spanMs) / players.length;
        setTimeout(() => {
          const serverIndex = index % servers.length;
          const connectAt = performance.now();
          const connection = servers[serverIndex]!.connectPlayer({
            name: player.name,
            identifiers: [
              player.license,
              `ip:10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
            ],
          });
          const sample: JoinSample = {
            player,
            server: serverIndex,
            connectAtMs: connectAt - begin,
            connectAt,
            decidedAt: null,
            latencyMs: null,
            admitted: false,
            id: null,
          };
          samples.push(sample);
          const giveUp = setTimeout(resolve, giveUpMs);
          void connection.decision.then((decision) => {
            clearTimeout(giveUp);
            sample.decidedAt = performance.now();
            sample.latencyMs = sample.decidedAt - connectAt;
            sample.admitted = decision.admitted;
            sample.id = decision.admitted ? decision.id : null;
            decided++;
            options.onProgress?.(decided, players.length);
            resolve();
          });
        }, offset);
      }),
  );
  await Promise.all(all);
  return { samples: samples.sort((a, b) => a.connectAtMs - b.connectAtMs), beganAt };
}

export interface StormSummary {
  players: number;
  requests: number;
  rateLimited: number;
  wrong: number;
  undecided: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  byEndpoint: Record<string, number>;
  /** Every request of the storm: when it arrived (ms after the storm began), what and how many values. */
  timeline: TimelineEntry[];
}

export interface TimelineEntry {
  atMs: number;
  endpoint: string;
  /** Licenses or member ids asked for in one request. */
  values: number;
  status: number | null;
}

/** What the mock saw from `fromIndex` of its request log on, and how right the decisions were. */
export function summarizeStorm(
  samples: readonly JoinSample[],
  mock: MockRoster,
  fromIndex: number,
  beganAt: number,
): StormSummary {
  const log = mock.counters.log.slice(fromIndex);
  const byEndpoint: Record<string, number> = {};
  for (const entry of log) byEndpoint[entry.endpoint] = (byEndpoint[entry.endpoint] ?? 0) + 1;
  const latencies = samples
    .map((s) => s.latencyMs)
    .filter((l): l is number => l !== null)
    .sort((a, b) => a - b);
  const undecided = samples.filter((s) => s.latencyMs === null).length;
  return {
    players: samples.length,
    requests: log.length,
    rateLimited: log.filter((e) => e.status === 429).length,
    wrong: samples.filter((s) => s.latencyMs === null || s.admitted !== s.player.shouldAdmit).length,
    undecided,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: undecided > 0 ? Number.POSITIVE_INFINITY : percentile(latencies, 0.99),
    maxMs: undecided > 0 ? Number.POSITIVE_INFINITY : (latencies.at(-1) ?? 0),
    byEndpoint,
    timeline: log.map((e) => ({
      atMs: e.time - beganAt,
      endpoint: e.endpoint.replace(/^GET \/api\/v1\//, ''),
      values: new URLSearchParams(e.query).getAll(e.endpoint.endsWith('members') ? 'gameLicense' : 'memberId')
        .length,
      status: e.status,
    })),
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
