import { startMariaDb, TestDatabase } from '../mariadb';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { FleetProcess } from './fleet-process';
import type { FleetPlayer } from './fleet-protocol';
import { sleep } from './gate-servers';
import type { Progress } from './progress';
import { countByEndpoint } from './request-log';
import { SERVICE_LATENCY_MS } from './storm-scenario';

const HOUR_MS = 3_600_000;
/** Members the mock holds: enough ACTIVE ones for 4 × 1,000 distinct players online. */
const MEMBERS = 6_000;
/** How long the requests are counted once everyone is online (real time; scaled to an hour). */
export const STEADY_WINDOW_MS = 600_000;
/**
 * From the joins to the window: one `refresh.intervalSeconds` (300 s by default) and a little, so
 * the duty hours' first read of every player who joined (a join's cost, once per player, each
 * server its own players) is behind; counted apart.
 */
export const FIRST_READS_MS = 330_000;

export interface SteadyCount {
  servers: number;
  /** Players online on each server while counted. */
  online: number[];
  /** Requests from the joins to the window: the players' first reads (duty hours, once each). */
  firstReads: Record<string, number>;
  /** Requests in the window, and that scaled to an hour. */
  requests: number;
  perHour: number;
  byEndpoint: Record<string, number>;
}

export interface ShareSteadyResult {
  windowMs: number;
  /** One server alone, sharing off, no database. */
  alone: SteadyCount;
  /** Every server sharing one roster through one MariaDB. */
  shared: SteadyCount;
}

/**
 * Requests per hour with the roster held and players online, the default clocks: one server alone
 * beside `servers` servers sharing, both counted over the same real-time window (a shortened run,
 * scaled to an hour) once every mirror is complete and every player is in.
 */
export async function shareSteadyScenario(
  servers: number,
  playersPerServer: number,
  progress?: Progress,
): Promise<ShareSteadyResult> {
  const [alone, shared] = await Promise.all([
    steadyCount(1, playersPerServer, null),
    steadyCount(servers, playersPerServer, progress ?? null),
  ]);
  return { windowMs: STEADY_WINDOW_MS, alone, shared };
}

async function steadyCount(
  servers: number,
  playersPerServer: number,
  progress: Progress | null,
): Promise<SteadyCount> {
  const sharing = servers > 1;
  const mariadb = sharing ? await startMariaDb() : null;
  let database: TestDatabase | null = null;
  let mock: MockRoster | null = null;
  const fleet: FleetProcess[] = [];
  try {
    database = mariadb ? await TestDatabase.create(mariadb.credentials, 'roster_bench') : null;
    mock = await startMockRoster({ port: 0, members: MEMBERS, seed: 1 });
    mock.faults.latency(SERVICE_LATENCY_MS);
    for (let index = 0; index < servers; index++) {
      const server = new FleetProcess(index);
      fleet.push(server);
      const config = sharing ? { share: { enabled: true, serverName: `server-${index + 1}` } } : {};
      server.start(mock.url, mock.keys.full, config, database?.connectionString());
    }
    progress?.update('sharing, steady state: every mirror complete…');
    await Promise.all(fleet.map((server) => server.mirror(600_000)));
    const departments = new Map<string, number>();
    for (const a of mock.data.data.assignments)
      departments.set(a.memberId, (departments.get(a.memberId) ?? 0) + 1);
    const active: FleetPlayer[] = mock.data.members
      .filter((m) => m.status === 'ACTIVE')
      .slice(0, servers * playersPerServer)
      .map((m) => ({
        name: m.displayName,
        license: m.gameLicense,
        shouldAdmit: true,
        departments: departments.get(m.id) ?? 0,
      }));
    progress?.update('sharing, steady state: the players join…');
    const joined = await Promise.all(
      fleet.map((server, k) =>
        server.storm(
          active.filter((_, i) => i % servers === k),
          Date.now() + 500,
          20_000,
          30_000,
        ),
      ),
    );
    const online = joined.map((samples) => samples.filter((s) => s.admitted).length);
    const joinedAt = Date.now();
    progress?.update("sharing, steady state: the players' first duty reads…");
    await sleep(FIRST_READS_MS);
    const from = Date.now();
    const firstReads = countByEndpoint(mock.counters.log.filter((e) => e.time >= joinedAt && e.time < from));
    progress?.update(`sharing, steady state: counting for ${STEADY_WINDOW_MS / 60_000} min…`);
    await sleep(STEADY_WINDOW_MS);
    const log = mock.counters.log.filter((e) => e.time >= from);
    return {
      servers,
      online,
      firstReads,
      requests: log.length,
      perHour: (log.length * HOUR_MS) / STEADY_WINDOW_MS,
      byEndpoint: countByEndpoint(log),
    };
  } catch (error) {
    for (const server of fleet) server.kill();
    throw error;
  } finally {
    await Promise.all(fleet.map((server) => server.stop()));
    await mock?.close();
    await database?.drop().catch(() => {});
    await mariadb?.stop().catch(() => {});
  }
}
