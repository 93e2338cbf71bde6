import { type MariaDb, startMariaDb, TestDatabase } from '../mariadb';
import type { MockMember } from '../mock-roster/records';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { fleetPlayers, joinRound } from './fleet';
import { FleetProcess } from './fleet-process';
import { sleep } from './gate-servers';
import type { BenchPlayer } from './population';
import type { Progress } from './progress';
import { SERVICE_LATENCY_MS } from './storm-scenario';

/** `refresh.auditSeconds` here: a suspension is held to this, one pass (a pass every interval) and 2 s. */
export const FAILOVER_AUDIT_SECONDS = 15;
/** How long the database is down. */
export const DATABASE_DOWN_MS = 60_000;
const MEMBERS = 500;
/** Between two tries of a suspended member on each server. */
const TRY_EVERY_MS = 1_000;
/** Tries stop this long after the suspension (the target is 32 s). */
const TRY_FOR_MS = 90_000;
/** The reader is killed; the suspension is made this long after, while nobody reads. */
const SUSPEND_AFTER_KILL_MS = 2_000;

export interface SuspensionReach {
  /** Suspension → each server's first try that was refused (Infinity: none within 90 s). */
  perServerMs: number[];
  /** The slowest server. */
  everyServerMs: number;
}

export interface ShareFailoverResult {
  servers: number;
  auditSeconds: number;
  /** A dashboard suspension with every server sharing. */
  suspension: SuspensionReach;
  /** The reader's process killed (SIGKILL: its lease is not given up). */
  readerKilled: {
    /** Kill → another server says it reads the roster (Infinity: none within the wait). */
    newReaderMs: number;
    /** A suspension made 2 s after the kill, reaching every server left. */
    suspension: SuspensionReach;
  };
  /** MariaDB stopped for `downMs` while players join every server. */
  databaseDown: {
    downMs: number;
    players: number;
    wrong: number;
    rateLimited: number;
    requests: number;
    /** Servers that said the database answers again within 60 s of it coming back. */
    backOn: number;
  };
}

const shareConfig = (index: number) => ({
  share: { enabled: true, serverName: `server-${index + 1}` },
  refresh: { auditSeconds: FAILOVER_AUDIT_SECONDS },
});

/**
 * Four servers sharing one roster ({@link MEMBERS} members, 50 ms answers, the audit log every
 * 15 s): a dashboard suspension timed to every server's refusal; the reader's process killed and
 * a suspension made while nobody reads; the database stopped for 60 s while players join.
 */
export async function shareFailoverScenario(
  servers: number,
  progress?: Progress,
): Promise<ShareFailoverResult> {
  const mariadb = await startMariaDb();
  let mock: MockRoster | null = null;
  let database: TestDatabase | null = null;
  const fleet: FleetProcess[] = [];
  try {
    database = await TestDatabase.create(mariadb.credentials, 'roster_bench');
    const connection = database.connectionString();
    mock = await startMockRoster({ port: 0, members: MEMBERS, seed: 1 });
    mock.faults.latency(SERVICE_LATENCY_MS);
    for (let index = 0; index < servers; index++) {
      const server = new FleetProcess(index);
      fleet.push(server);
      server.start(mock.url, mock.keys.full, shareConfig(index), connection);
    }
    progress?.update('sharing, failover: every mirror complete…');
    await Promise.all(fleet.map((server) => server.mirror(300_000)));
    const active = mock.data.members.filter((m) => m.status === 'ACTIVE');

    progress?.update('sharing, failover: a dashboard suspension…');
    const suspension = await suspensionReach(fleet, mock, active[0]!);

    progress?.update("sharing, failover: the reader's process killed…");
    const readers = await Promise.all(fleet.map((server) => server.lines('this server reads it')));
    const readerIndex = readers.findIndex((lines) => lines.length > 0);
    if (readerIndex < 0) throw new Error('sharing: no server reads the roster');
    const reader = fleet[readerIndex]!;
    reader.kill('SIGKILL');
    const killedAt = Date.now();
    const left = fleet.filter((server) => server !== reader);
    const said = await Promise.all(left.map((server) => server.lines('this server reads it')));
    await sleep(SUSPEND_AFTER_KILL_MS);
    const meanwhile = suspensionReach(left, mock, active[1]!);
    const newReaderMs = await firstNewReader(left, said, killedAt);
    const readerKilled = { newReaderMs, suspension: await meanwhile };

    progress?.update('sharing, failover: the database down 60 s…');
    const databaseDown = await databaseDownRound(left, mock, mariadb);
    return { servers, auditSeconds: FAILOVER_AUDIT_SECONDS, suspension, readerKilled, databaseDown };
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

/** Suspends `member` in the dashboard; every server tries them each second until it refuses them. */
async function suspensionReach(
  fleet: readonly FleetProcess[],
  mock: MockRoster,
  member: MockMember,
): Promise<SuspensionReach> {
  const player: BenchPlayer = { name: member.displayName, license: member.gameLicense, shouldAdmit: false };
  mock.dashboard.setStatus(member.id, 'SUSPENDED');
  const suspendedAt = Date.now();
  const perServerMs = await Promise.all(
    fleet.map(async (server) => {
      for (;;) {
        const tryAt = Date.now();
        if (tryAt - suspendedAt > TRY_FOR_MS) return Number.POSITIVE_INFINITY;
        const decision = await server.join(player);
        if (!decision.admitted) return decision.connectAt - suspendedAt;
        await sleep(Math.max(0, tryAt + TRY_EVERY_MS - Date.now()));
      }
    }),
  );
  return { perServerMs, everyServerMs: Math.max(...perServerMs) };
}

/** Kill → the first server (of those left) that says it reads the roster, beyond what it said before. */
async function firstNewReader(
  left: readonly FleetProcess[],
  before: readonly string[][],
  killedAt: number,
): Promise<number> {
  while (Date.now() - killedAt < TRY_FOR_MS) {
    const now = await Promise.all(left.map((server) => server.lines('this server reads it')));
    if (now.some((lines, k) => lines.length > (before[k]?.length ?? 0))) return Date.now() - killedAt;
    await sleep(250);
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Stops MariaDB for `DATABASE_DOWN_MS` while 100 players a server join over that time (a fifth
 * strangers, the rest members of any status), then waits for the servers to share again.
 */
async function databaseDownRound(
  fleet: readonly FleetProcess[],
  mock: MockRoster,
  mariadb: MariaDb,
): Promise<ShareFailoverResult['databaseDown']> {
  const before = await Promise.all(fleet.map((server) => server.lines('the database answers again')));
  await mariadb.halt();
  const back = sleep(DATABASE_DOWN_MS).then(() => mariadb.boot());
  const players = fleetPlayers(mock, fleet.length * 100);
  const joins = await joinRound(
    fleet,
    mock,
    players,
    { mirror: 'on', spanMs: DATABASE_DOWN_MS - 5_000, label: 'sharing, database down' },
    Date.now(),
    'the database down',
  );
  await back;
  const bootedAt = Date.now();
  await Promise.all(fleet.map((server) => server.dropAll()));
  let backOn = 0;
  while (Date.now() - bootedAt < 60_000) {
    const now = await Promise.all(fleet.map((server) => server.lines('the database answers again')));
    backOn = now.filter((lines, k) => lines.length > (before[k]?.length ?? 0)).length;
    if (backOn === fleet.length) break;
    await sleep(500);
  }
  return {
    downMs: DATABASE_DOWN_MS,
    players: players.length,
    wrong: joins.summary.wrong,
    rateLimited: joins.summary.rateLimited,
    requests: joins.summary.requests,
    backOn,
  };
}
