import { startMariaDb, TestDatabase } from '../mariadb';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { type ProxiedRequest, startCountingProxy } from './counting-proxy';
import { type FleetColdStart, type FleetJoins, fleetPlayers, joinRound } from './fleet';
import { FleetProcess } from './fleet-process';
import { sleep } from './gate-servers';
import { percentile } from './join-storm';
import type { Progress } from './progress';
import { countByEndpoint, maxIn60s, mirrorOwn } from './request-log';
import { SERVICE_LATENCY_MS } from './storm-scenario';

export interface ShareFleetOptions {
  servers: number;
  playersPerServer: number;
  spanMs: number;
  members: number;
  progress?: Progress;
}

/** One server alone on the key, sharing off and no database: its first read. */
export interface AloneFirstRead {
  requests: number;
  byEndpoint: Record<string, number>;
  /** Fork → its mirror complete. */
  completeMs: number;
}

/** A follower restarted while the shared roster is current, behind a proxy of its own. */
export interface ShareRestart {
  /** Its requests to the service from its start until its mirror decided joins. */
  requests: number;
  byEndpoint: Record<string, number>;
  /** Fork → its mirror complete (the process and the emulator starting included). */
  holdsAfterMs: number;
  /** Members joining it right after: p99 connect → decision, and its requests meanwhile (what for). */
  membersP99Ms: number;
  joinRequests: number;
  joinEndpoints: Record<string, number>;
  wrong: number;
}

export interface ShareFleetResult {
  servers: number;
  members: number;
  alone: AloneFirstRead;
  /** Every server on the key and one database, sharing on: until every mirror is complete. */
  coldStart: FleetColdStart;
  /** How many servers said they read the roster themselves (one, when the lease works). */
  readers: number;
  /** Each server's start → its mirror complete, and which of them read the roster. */
  mirrorMs: number[];
  readerIndex: number;
  /** The joins once every mirror is complete and the key's minute is clear. */
  joins: FleetJoins;
  restart: ShareRestart;
  /** `roster status`'s sharing line of each server at the end. */
  status: string[];
}

const TIMEOUT_MS = 600_000;
/** Longer than the key's minute: the joins are measured with it clear, as the fleet's second round. */
const SETTLE_MS = 65_000;
/** Members that join the restarted server. */
const RESTART_JOINS = 50;

const shareConfig = (index: number) => ({ share: { enabled: true, serverName: `server-${index + 1}` } });

/**
 * The fleet with the roster shared through one MariaDB: first one server alone (sharing off, no
 * database: what one server's first read costs), then `servers` servers on one key, each its own
 * process with oxmysql on the same database, start together until every mirror is complete; once
 * the key's minute is clear the players join, alternating servers; last, a follower restarts
 * while the shared roster is current and members join it.
 */
export async function shareFleetScenario(options: ShareFleetOptions): Promise<ShareFleetResult> {
  const progress = options.progress;
  progress?.update('sharing: one server alone, its first read…');
  const alone = await aloneFirstRead(options.members);
  progress?.update('sharing: starting MariaDB…');
  const mariadb = await startMariaDb();
  let mock: MockRoster | null = null;
  let database: TestDatabase | null = null;
  const fleet: FleetProcess[] = [];
  try {
    database = await TestDatabase.create(mariadb.credentials, 'roster_bench');
    const connection = database.connectionString();
    mock = await startMockRoster({ port: 0, members: options.members, seed: 1 });
    mock.faults.latency(SERVICE_LATENCY_MS);
    const startedAt = Date.now();
    for (let index = 0; index < options.servers; index++) {
      const server = new FleetProcess(index);
      fleet.push(server);
      server.start(mock.url, mock.keys.full, shareConfig(index), connection);
    }
    progress?.update(`sharing: ${options.servers} servers start together…`);
    const mirrors = await Promise.all(fleet.map((server) => server.mirror(TIMEOUT_MS)));
    const readyAt = Math.max(...mirrors.map((m) => m.at));
    const log = mock.counters.log.filter((e) => e.time <= readyAt);
    const coldStart: FleetColdStart = {
      requests: log.length,
      byEndpoint: countByEndpoint(log),
      rateLimited: log.filter((e) => e.status === 429).length,
      maxIn60s: maxIn60s(log),
      mirrorMaxIn60s: maxIn60s(mirrorOwn(log)),
      completeMs: readyAt - startedAt,
      held: mirrors.map((m) => m.held),
    };
    const said = await Promise.all(fleet.map((server) => server.lines('this server reads it')));
    const readers = said.filter((lines) => lines.length > 0).length;
    const readerIndex = said.findIndex((lines) => lines.length > 0);
    const mirrorMs = mirrors.map((m) => m.at - startedAt);

    progress?.update(`sharing: every mirror complete, waiting ${SETTLE_MS / 1000} s for the key's minute…`);
    await sleep(SETTLE_MS);
    const players = fleetPlayers(mock, options.servers * options.playersPerServer);
    const joins = await joinRound(
      fleet,
      mock,
      players,
      { mirror: 'on', spanMs: options.spanMs, label: 'sharing', ...(progress ? { progress } : {}) },
      readyAt,
      'mirrors complete, sharing on',
    );
    await Promise.all(fleet.map((server) => server.dropAll()));

    progress?.update('sharing: a follower restarts…');
    const restart = await restartFollower(fleet, mock, connection);
    const status = await Promise.all(
      fleet.map(async (server) => (await server.status()).find((l) => l.includes('sharing:')) ?? '(none)'),
    );
    return {
      servers: options.servers,
      members: options.members,
      alone,
      coldStart,
      readers,
      mirrorMs,
      readerIndex,
      joins,
      restart,
      status,
    };
  } catch (error) {
    for (const server of fleet) server.kill();
    throw error;
  } finally {
    await Promise.all(fleet.map((server) => server.stop()));
    await mock?.close();
    await database?.drop().catch(() => {});
    await mariadb.stop().catch(() => {});
  }
}

/** One server, today's resource with sharing off: requests and time until its mirror is complete. */
async function aloneFirstRead(members: number): Promise<AloneFirstRead> {
  const mock = await startMockRoster({ port: 0, members, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const server = new FleetProcess(0);
  try {
    const startedAt = Date.now();
    server.start(mock.url, mock.keys.full, {});
    const { at } = await server.mirror(TIMEOUT_MS);
    const log = mock.counters.log.filter((e) => e.time <= at);
    return { requests: log.length, byEndpoint: countByEndpoint(log), completeMs: at - startedAt };
  } catch (error) {
    server.kill();
    throw error;
  } finally {
    await server.stop();
    await mock.close();
  }
}

/**
 * Stops a server that follows (the reader goes on), starts it again on the same database behind
 * a proxy of its own, and counts what it asks the service until its mirror decides joins; then
 * members join it.
 */
async function restartFollower(
  fleet: FleetProcess[],
  mock: MockRoster,
  connection: string,
): Promise<ShareRestart> {
  const follows = await Promise.all(fleet.map((server) => server.lines('this server follows')));
  const index = follows.findIndex((lines) => lines.length > 0);
  if (index < 0) throw new Error('sharing: no server follows the shared roster');
  await fleet[index]!.stop();
  const proxy = await startCountingProxy(mock.url);
  try {
    const server = new FleetProcess(index);
    fleet[index] = server;
    const startedAt = Date.now();
    server.start(proxy.url, mock.keys.full, shareConfig(index), connection);
    const { at } = await server.mirror(TIMEOUT_MS);
    const before = proxy.requests.filter((r) => r.time <= at);
    const members = fleetPlayers(mock, RESTART_JOINS * 3)
      .filter((p) => p.departments !== null)
      .slice(0, RESTART_JOINS);
    const mark = proxy.requests.length;
    const samples = await server.storm(members, Date.now() + 500, 5_000, 30_000);
    const latencies = samples
      .map((s) => (s.decidedAt === null ? Number.POSITIVE_INFINITY : s.decidedAt - s.connectAt))
      .sort((a, b) => a - b);
    return {
      requests: before.length,
      byEndpoint: proxiedEndpoints(before),
      holdsAfterMs: at - startedAt,
      membersP99Ms: percentile(latencies, 0.99),
      joinRequests: proxy.requests.length - mark,
      joinEndpoints: proxiedEndpoints(proxy.requests.slice(mark)),
      wrong: samples.filter((s) => s.decidedAt === null || s.admitted !== s.player.shouldAdmit).length,
    };
  } finally {
    await proxy.close();
  }
}

/** Requests counted by method and path (no query). */
function proxiedEndpoints(requests: readonly ProxiedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    const endpoint = `${r.method} ${r.path.split('?')[0]}`;
    counts[endpoint] = (counts[endpoint] ?? 0) + 1;
  }
  return counts;
}
