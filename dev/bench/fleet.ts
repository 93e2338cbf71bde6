import type { MockRoster } from '../mock-roster/server';
import { startMockRoster } from '../mock-roster/server';
import { FleetProcess } from './fleet-process';
import type { FleetPlayer, FleetSample } from './fleet-protocol';
import { type FullDataSummary, summarizeFullData } from './full-data-summary';
import { sleep } from './gate-servers';
import { type JoinSample, type StormSummary, summarizeStorm } from './join-storm';
import { choosePlayers } from './population';
import type { Progress } from './progress';
import { countByEndpoint, countKinds, maxIn60s, mirrorOwn } from './request-log';
import { SERVICE_LATENCY_MS } from './storm-scenario';

export interface FleetOptions {
  servers: number;
  playersPerServer: number;
  spanMs: number;
  /** Members the mock is seeded with. */
  members: number;
  /** 'on': the default config, joins once every server's mirror completed; 'off': mirror.enabled false. */
  mirror: 'on' | 'off';
  label: string;
  progress?: Progress;
}

/** The servers starting together on one key until every mirror is complete (mirror on). */
export interface FleetColdStart {
  /** Every request from the first fork until the last mirror completed. */
  requests: number;
  byEndpoint: Record<string, number>;
  rateLimited: number;
  maxIn60s: number;
  /** The most of the mirrors' own requests (all servers) within any 60 s. */
  mirrorMaxIn60s: number;
  /** First fork → the last server's mirror complete. */
  completeMs: number;
  /** Members each server's mirror holds. */
  held: number[];
}

/** One round of joins over the fleet. */
export interface FleetJoins {
  /** Every server's mirror had completed before the first player connected. */
  completeBeforeJoins: boolean;
  /** From the last mirror completing (or the servers connecting) to the first connection. */
  afterMs: number;
  summary: StormSummary;
  /** The round's requests by what they were for (`request-log.ts`). */
  byKind: Record<string, number>;
  samples: JoinSample[];
  fullData: FullDataSummary;
  /** The most requests on the key within any 60 s from the first connection on. */
  maxIn60s: number;
}

export interface FleetResult {
  servers: number;
  mirror: 'on' | 'off';
  coldStart: FleetColdStart | null;
  /** The players join 3 s after the cold start: the first reads' minute is still spent. */
  afterFirstReads: FleetJoins;
  /** Everyone dropped, then the same players join again once the key's minute and the caches' "not on the roster" (60 s) are behind. */
  settled: FleetJoins;
}

const TIMEOUT_MS = 600_000;
/** Longer than the key's minute and `cache.negativeTtlSeconds` (60 s). */
const SETTLE_MS = 65_000;

/**
 * `servers` game servers on one key, each in its own OS process (its own FXServer emulator and
 * roster resource), against this process's mock over loopback. They start together (with the
 * mirror on, until every mirror holds the roster: the cold start); 3 s later `playersPerServer`
 * distinct players each connect, spread over `spanMs` and alternating servers; then everyone
 * leaves and, once the minute is behind, the same players join again.
 */
export async function fleetScenario(options: FleetOptions): Promise<FleetResult> {
  const mock = await startMockRoster({ port: 0, members: options.members, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const config = options.mirror === 'off' ? { mirror: { enabled: false } } : {};
  const startedAt = Date.now();
  const fleet = Array.from({ length: options.servers }, (_, index) => new FleetProcess(index));
  try {
    for (const server of fleet) server.start(mock.url, mock.keys.full, config);
    let readyAt = Math.max(...(await Promise.all(fleet.map((server) => server.connected(60_000)))));
    let coldStart: FleetColdStart | null = null;
    if (options.mirror === 'on') {
      options.progress?.update(`${options.label}: first reads…`);
      const mirrors = await Promise.all(fleet.map((server) => server.mirror(TIMEOUT_MS)));
      readyAt = Math.max(...mirrors.map((m) => m.at));
      const log = mock.counters.log.filter((e) => e.time <= readyAt);
      coldStart = {
        requests: log.length,
        byEndpoint: countByEndpoint(log),
        rateLimited: log.filter((e) => e.status === 429).length,
        maxIn60s: maxIn60s(log),
        mirrorMaxIn60s: maxIn60s(mirrorOwn(log)),
        completeMs: readyAt - startedAt,
        held: mirrors.map((m) => m.held),
      };
    }
    const players = fleetPlayers(mock, options.servers * options.playersPerServer);
    await sleep(3_000);
    const afterFirstReads = await joinRound(
      fleet,
      mock,
      players,
      options,
      readyAt,
      'right after the first reads',
    );
    await Promise.all(fleet.map((server) => server.dropAll()));
    options.progress?.update(`${options.label}: everyone left, waiting ${SETTLE_MS / 1000} s…`);
    const leftAt = Date.now();
    await sleep(SETTLE_MS);
    const settled = await joinRound(fleet, mock, players, options, leftAt, 'again, settled');
    return { servers: options.servers, mirror: options.mirror, coldStart, afterFirstReads, settled };
  } catch (error) {
    for (const server of fleet) server.kill();
    throw error;
  } finally {
    await Promise.all(fleet.map((server) => server.stop()));
    await mock.close();
  }
}

/** Every player connects once, alternating servers, spread over `spanMs`; summed up across the fleet. */
export async function joinRound(
  fleet: readonly FleetProcess[],
  mock: MockRoster,
  players: readonly FleetPlayer[],
  options: Pick<FleetOptions, 'mirror' | 'spanMs' | 'label' | 'progress'>,
  since: number,
  round: string,
): Promise<FleetJoins> {
  const completeBeforeJoins =
    options.mirror === 'on' && (await Promise.all(fleet.map((s) => s.mirrorHolds()))).every(Boolean);
  const mark = mock.counters.log.length;
  // Time for the messages to arrive before the first connection.
  const beganAt = Date.now() + 500;
  options.progress?.update(`${options.label}: ${players.length} joins, ${round}…`);
  const results = await Promise.all(
    fleet.map((server, k) =>
      server.storm(
        players.filter((_, i) => i % fleet.length === k),
        beganAt + (k * options.spanMs) / players.length,
        options.spanMs,
        30_000,
      ),
    ),
  );
  await sleep(SERVICE_LATENCY_MS * 4);
  const samples = results.flatMap((list, k) => list.map((s) => joinSample(s, k, beganAt)));
  const byLicense = new Map(results.flat().map((s) => [s.player.license.toLowerCase(), s]));
  const log = mock.counters.log.slice(mark);
  return {
    completeBeforeJoins,
    afterMs: beganAt - since,
    summary: summarizeStorm(samples, mock, mark, beganAt),
    byKind: countKinds(log),
    samples,
    fullData: summarizeFullData(
      samples,
      {
        completeAt: (license) => byLicense.get(license.toLowerCase())?.completeAt ?? null,
        completeAtJoining: (license) => byLicense.get(license.toLowerCase())?.completeAtJoining ?? false,
      },
      log,
      0,
    ),
    maxIn60s: maxIn60s(log),
  };
}

/** The storm's mix (a fifth strangers), each with the departments the mock holds for them. */
export function fleetPlayers(mock: MockRoster, count: number): FleetPlayer[] {
  const departments = new Map<string, number>();
  for (const a of mock.data.data.assignments)
    departments.set(a.memberId, (departments.get(a.memberId) ?? 0) + 1);
  const byLicense = new Map(mock.data.members.map((m) => [m.gameLicense, m.id]));
  return choosePlayers(mock.data, count).map((player) => {
    const id = byLicense.get(player.license);
    return { ...player, departments: id === undefined ? null : (departments.get(id) ?? 0) };
  });
}

/** A fleet server's sample in the shape the storm summaries take (times stay epoch ms). */
function joinSample(s: FleetSample, server: number, beganAt: number): JoinSample {
  return {
    player: s.player,
    server,
    connectAtMs: s.connectAt - beganAt,
    connectAt: s.connectAt,
    decidedAt: s.decidedAt,
    latencyMs: s.decidedAt === null ? null : s.decidedAt - s.connectAt,
    admitted: s.admitted,
    id: s.id,
  };
}
