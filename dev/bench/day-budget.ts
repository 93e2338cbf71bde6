import { startAuditFeed } from '../../src/features/audit/audit-start';
import { gapReread } from '../../src/features/audit/gap-reread';
import { scheduleRefresh } from '../../src/features/audit/refresh-plan';
import { readDutyFields } from '../../src/features/duty/duty-fields';
import { DutyLedger } from '../../src/features/duty/duty-ledger';
import { DutyReader, dutyBudget } from '../../src/features/duty/duty-reader';
import { MirrorSync } from '../../src/features/mirror/mirror-sync';
import { communityKey } from '../../src/features/mirror/saved-mirror';
import { dailyCost, keyOutlook } from '../../src/http';
import { configSchema } from '../../src/kernel/config';
import { Schedule } from '../../src/kernel/schedule';
import { silentLogger } from '../../src/platform/ports';
import { RosterCatalog } from '../../src/roster/catalog';
import { createRosterApi, type RosterApi, rosterUserAgent } from '../../src/roster/client';
import { MemberCache } from '../../src/roster/member-cache';
import { MemberResolver } from '../../src/roster/member-resolver';
import { OnlinePlayers } from '../../src/roster/online-players';
import { PlayerRegistry } from '../../src/roster/player-registry';
import { RosterErrors } from '../../src/roster/roster-errors';
import { seededRandom } from '../mock-http/seeded-random';
import { DASHBOARD_ACTOR } from '../mock-roster/dashboard';
import type { MockMember } from '../mock-roster/records';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { CountingPool } from './counting-pool';
import type { Progress } from './progress';
import { countKinds } from './request-log';
import { fixed, integer, percent, type ResultRow } from './table';
import { VirtualClock } from './virtual-clock';

const HOUR_MS = 3_600_000;
/** The key's day, as the API document gives it. */
const KEY_DAY = 25_000;
/** start.ts reloads departments and ranks this often. */
const CATALOG_REFRESH_MS = 30 * 60_000;

/** What a day with N servers on one key looks like. */
export interface DayBudgetSetting {
  /** Members on the roster. */
  members: number;
  /** Players online on each server, kept there by joins and leaves. */
  online: number;
  /** Connections a server sees an hour (each one a player leaving and another coming). */
  joinsPerHour: number;
  /** Of the connections, players not on the roster. */
  strangerShare: number;
  /** Roster changes staff make in the dashboard an hour, for the whole community. */
  changesPerHour: number;
  /** Hours counted, after every server's first read and a quarter of an hour. */
  hours: number;
}

export const DAY_BUDGET_SETTING: DayBudgetSetting = {
  members: 2_000,
  online: 64,
  joinsPerHour: 32,
  strangerShare: 0.1,
  changesPerHour: 6,
  hours: 24,
};

export interface DayBudgetRun {
  servers: number;
  /** Each server's requests over the day counted. */
  perServer: number[];
  /** The key's requests over the day, every server's, as the service counted them. */
  key: number;
  rateLimited: number;
  /** The key's requests by what they were for (`request-log.ts`). */
  byKind: Record<string, number>;
  /** What `roster doctor` on the first server says at the end of the day. */
  doctor: { own: number; serversWorth: number; keyPerDay: number };
  /** The key's rolling day as the first server's rate limiter counts it at the end: its own and the others' seen. */
  keyCounted: number;
  /** Joins decided over the day, every server, and how many were decided against the roster's data. */
  joins: number;
  wrong: number;
}

export interface DayBudgetResults {
  setting: DayBudgetSetting;
  runs: DayBudgetRun[];
}

/** One game server's roster side, wired as src/features/<feature>/index.ts wire it, on the shared clock. */
interface BenchServer {
  api: RosterApi;
  pool: SendingPool;
  players: PlayerRegistry;
  catalog: RosterCatalog;
  members: MemberResolver;
  onlinePlayers: OnlinePlayers;
  sync: MirrorSync;
  schedule: Schedule;
  /** Players online, by final id. */
  online: string[];
}

/** A `CountingPool` that counts what it sent: one server's requests, when several share a key. */
class SendingPool extends CountingPool {
  sent = 0;

  override dispatch(...args: Parameters<CountingPool['dispatch']>): boolean {
    this.sent++;
    return super.dispatch(...args);
  }
}

/**
 * 1, 2, 4 and 8 servers on one key for a day each, with the defaults (mirror on, audit log every
 * 60 s, full re-read every 6 h, refresh every 300 s, duty sessions read, departments and ranks
 * every 30 min) against the mock, on a virtual clock: players come and go on every server and
 * staff change the roster in the dashboard. A whole day is counted, not a shorter run scaled up.
 */
export async function dayBudget(
  progress?: Progress,
  setting: DayBudgetSetting = DAY_BUDGET_SETTING,
  fleets: readonly number[] = [1, 2, 4, 8],
): Promise<DayBudgetResults> {
  const runs: DayBudgetRun[] = [];
  for (const servers of fleets) runs.push(await oneKeyDay(servers, setting, progress));
  return { setting, runs };
}

async function oneKeyDay(
  servers: number,
  setting: DayBudgetSetting,
  progress?: Progress,
): Promise<DayBudgetRun> {
  const config = configSchema.parse({});
  const pools: SendingPool[] = [];
  const clock = new VirtualClock(Date.UTC(2025, 5, 2, 0, 0), () => pools.some((pool) => pool.inFlight > 0));
  const mock = await startMockRoster({ port: 0, members: setting.members, seed: 1, now: () => clock.now() });
  const fleet: BenchServer[] = [];
  const driver = new Schedule(clock, seededRandom(17));
  const truth = { joins: 0, wrong: 0 };
  try {
    for (let index = 0; index < servers; index++) {
      const pool = new SendingPool(mock.url, { connections: 4 });
      pools.push(pool);
      fleet.push(await startServer(index, mock, clock, pool, config));
      await clock.run(20_000);
    }
    // Each server fills up, and every first read completes; then a quarter of an hour more.
    const random = seededRandom(23 + servers);
    const playerPicker = pickPlayers(mock, random, setting.strangerShare);
    for (const server of fleet)
      for (let i = 0; i < setting.online; i++) void join(server, playerPicker(), clock, mock, null);
    for (let waited = 0; !fleet.every((s) => s.sync.report().state.kind === 'up'); waited += 60_000) {
      if (waited > 3 * HOUR_MS) throw new Error('day budget: a first read never completed');
      await clock.run(60_000);
    }
    await clock.run(15 * 60_000);

    const mark = mock.counters.log.length;
    const sentBefore = pools.map((pool) => pool.sent);
    for (const server of fleet) {
      driver.every(
        HOUR_MS / setting.joinsPerHour,
        () => {
          leave(server, random);
          return join(server, playerPicker(), clock, mock, truth);
        },
        0.5,
      );
    }
    const staff = staffChanges(mock, seededRandom(29 + servers));
    driver.every(HOUR_MS / setting.changesPerHour, staff, 0.5);
    for (let hour = 0; hour < setting.hours; hour++) {
      progress?.update(`day budget, ${servers} server(s) on one key: hour ${hour + 1} of ${setting.hours}…`);
      await clock.run(HOUR_MS);
    }
    const days = setting.hours / 24;
    const log = mock.counters.log.slice(mark);
    const first = fleet[0]!;
    const now = clock.now();
    const day = first.api.keyDay.report(now);
    const outlook = keyOutlook(
      dailyCost(
        {
          auditSeconds: config.refresh.auditSeconds,
          mirror: {
            resyncMinutes: config.mirror.resyncMinutes,
            held: first.sync.report().held,
            deciding: first.sync.report().deciding,
          },
          refreshSeconds: config.refresh.intervalSeconds,
          dutySeconds: config.refresh.intervalSeconds,
          feedHealthy: true,
          online: first.players.onlineCount,
        },
        day,
        now,
      ),
      day,
      now,
    );
    return {
      servers,
      perServer: pools.map((pool, i) => (pool.sent - sentBefore[i]!) / days),
      key: log.length / days,
      rateLimited: log.filter((entry) => entry.status === 429).length,
      byKind: countKinds(log, days),
      doctor: { own: outlook.cost.total, serversWorth: outlook.serversWorth, keyPerDay: outlook.keyPerDay },
      keyCounted: day.own.join + day.own.write + day.own.refresh + day.own.background + (day.others ?? 0),
      joins: truth.joins,
      wrong: truth.wrong,
    };
  } finally {
    driver.stop();
    for (const server of fleet) {
      server.sync.stop();
      server.schedule.stop();
      await server.api.close();
    }
    for (const pool of pools) await pool.close();
    await mock.close();
  }
}

async function startServer(
  index: number,
  mock: MockRoster,
  clock: VirtualClock,
  pool: SendingPool,
  config: ReturnType<typeof configSchema.parse>,
): Promise<BenchServer> {
  const api = createRosterApi({
    baseUrl: mock.url,
    apiKey: mock.keys.full!,
    timeoutMs: config.api.timeoutMs,
    perMinute: config.rateLimit.perMinute,
    perDay: config.rateLimit.perDay,
    userAgent: rosterUserAgent('bench'),
    clock,
    logger: silentLogger,
    dispatcher: pool,
    random: seededRandom(3 + index),
  });
  const cache = new MemberCache({
    maxEntries: config.cache.maxEntries,
    ttlMs: config.cache.ttlSeconds * 1000,
    negativeTtlMs: config.cache.negativeTtlSeconds * 1000,
    now: () => clock.now(),
  });
  const players = new PlayerRegistry();
  const errors = new RosterErrors(clock, silentLogger);
  const catalog = new RosterCatalog({ source: api, clock, errors });
  const members = new MemberResolver({ source: api, cache, catalog, errors });
  const events = { playerLoaded() {}, playerUpdated() {} };
  const onlinePlayers = new OnlinePlayers({ players, members, catalog, events, errors });
  const schedule = new Schedule(clock, seededRandom(5 + index));
  const sync = new MirrorSync({
    source: api,
    members,
    online: onlinePlayers,
    schedule,
    clock,
    logger: silentLogger,
    maxEntries: config.cache.maxEntries,
    passMs: config.refresh.auditSeconds * 1000,
    resyncMs: config.mirror.resyncMinutes * 60_000,
  });
  // The key check with departments and ranks beside it, then what `ready` starts.
  const [identity] = await Promise.all([api.whoami(), catalog.load()]);
  const reread = gapReread({ online: onlinePlayers, cache, schedule, clock });
  const feed = startAuditFeed(
    {
      api,
      catalog,
      members,
      online: onlinePlayers,
      players,
      cache,
      schedule,
      clock,
      logger: silentLogger,
      auditSeconds: config.refresh.auditSeconds,
      gap: (reason) => {
        sync.gap(reason);
        reread();
      },
      entriesRead: (fresh) => sync.entriesRead(fresh),
    },
    identity.scopes,
  );
  if (feed) sync.follow(feed);
  sync.verified(communityKey(identity.community));
  sync.begin();
  scheduleRefresh({
    schedule,
    clock,
    members,
    online: onlinePlayers,
    intervalMs: config.refresh.intervalSeconds * 1000,
    feed: () => feed,
  });
  schedule.every(CATALOG_REFRESH_MS, () => catalog.load(true), 0.1);
  startDutyReads(api, players, schedule, clock, config.refresh.intervalSeconds * 1000);
  return { api, pool, players, catalog, members, onlinePlayers, sync, schedule, online: [] };
}

/** Duty sessions of the members online, as src/features/duty/index.ts reads them. */
function startDutyReads(
  api: RosterApi,
  players: PlayerRegistry,
  schedule: Schedule,
  clock: VirtualClock,
  intervalMs: number,
): void {
  void api.getRaw('/api/v1/openapi.json', undefined, 'background').then((document) => {
    const reading = readDutyFields(document);
    if (!reading.ok) throw new Error(`day budget: duty fields: ${reading.why}`);
    const reader = new DutyReader({
      list: (path, query, lane, maxPages) => api.list(path, query, lane, maxPages),
      fields: reading.fields,
      ledger: new DutyLedger(),
      clock,
      logger: silentLogger,
      serviceTime: () => api.serviceTime.now(),
    });
    const refresh = async () => {
      const ids = new Set<string>();
      for (const [, entry] of players.onlinePlayers()) if (entry.view) ids.add(entry.view.member.id);
      const online = [...ids];
      await reader.refresh(online, dutyBudget(online.length)).catch(() => undefined);
    };
    schedule.every(intervalMs, refresh);
  });
}

/** A player for a connection: a member of any status, or now and then a license the roster does not hold. */
function pickPlayers(mock: MockRoster, random: () => number, strangerShare: number): () => string {
  let strangers = 0;
  return () => {
    if (random() < strangerShare) return mock.data.nonMemberLicense(strangers++);
    const members = mock.data.members;
    return members[Math.floor(random() * members.length)]!.gameLicense;
  };
}

let connections = 0;

/** A connection through the gate: decided as src/features/join-gate/fivem/gate.ts decides it, and the player joins if admitted. */
async function join(
  server: BenchServer,
  license: string,
  clock: VirtualClock,
  mock: MockRoster,
  truth: { joins: number; wrong: number } | null,
): Promise<void> {
  const tempId = `temp:${++connections}`;
  const entry = { license, name: license, view: undefined, since: clock.now() };
  server.players.connect(tempId, entry);
  const resolution = await server.members.resolve(license, 'join', { decideOnly: true });
  const view = resolution.kind === 'answer' ? resolution.view : resolution.lastKnown;
  const admitted = view !== null && view !== undefined && view.member.status === 'ACTIVE';
  if (truth) {
    truth.joins++;
    if (admitted !== (mock.data.memberByLicense(license)?.status === 'ACTIVE')) truth.wrong++;
  }
  if (!admitted) {
    server.players.drop(tempId);
    return;
  }
  const id = String(++connections);
  const joined = server.players.join(id, tempId, () => entry);
  server.online.push(id);
  void server.onlinePlayers.loadPlayer(id, joined);
}

/** A random player online leaves. */
function leave(server: BenchServer, random: () => number): void {
  if (server.online.length === 0) return;
  const [id] = server.online.splice(Math.floor(random() * server.online.length), 1);
  if (id !== undefined) server.players.drop(id);
}

/**
 * Staff at work in the dashboard, each change written to the audit log: promotions and demotions
 * (half), suspensions and reinstatements (a third), and a new member from an application (a sixth).
 */
function staffChanges(mock: MockRoster, random: () => number): () => void {
  let n = 0;
  return () => {
    const kind = n++ % 6;
    const members = mock.data.members;
    const member = members[Math.floor(random() * members.length)]!;
    if (kind < 3) promote(mock, member, random);
    else if (kind < 5)
      mock.dashboard.setStatus(member.id, member.status === 'ACTIVE' ? 'SUSPENDED' : 'ACTIVE');
    else newMember(mock);
  };
}

function promote(mock: MockRoster, member: MockMember, random: () => number): void {
  const held = mock.data.assignmentsOf(member.id).find((a) => a.rankId !== null);
  const rank = held?.rankId ? mock.data.rank(held.rankId) : undefined;
  if (!held || !rank) return;
  const ladder = mock.data.data.ranks.filter((r) => r.departmentId === rank.departmentId);
  const next = ladder[Math.floor(random() * ladder.length)];
  if (next && next.id !== rank.id) mock.dashboard.setRank(member.id, next.id);
}

/** An application accepted: a member created with a department, as the service logs it. */
function newMember(mock: MockRoster): void {
  const department = mock.data.data.departments[0]!;
  const member = mock.data.addMember({ departmentId: department.id });
  mock.data.appendEntry({
    action: 'member.create',
    resourceType: 'member',
    resourceId: member.id,
    changes: { status: { from: null, to: member.status } },
    source: 'DASHBOARD',
    actorId: DASHBOARD_ACTOR.id,
    actorName: DASHBOARD_ACTOR.name,
    apiKeyId: null,
  });
}

/** The bench rows: what a day costs each server and the key, against the key's 25,000. */
export function dayBudgetRows(results: DayBudgetResults): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const run of results.runs) {
    const scenario = `${run.servers} server${run.servers === 1 ? '' : 's'} on one key, a day, mirror on (defaults)`;
    const perServer = run.perServer.reduce((a, b) => a + b, 0) / run.perServer.length;
    rows.push(
      {
        scenario,
        metric: 'requests a day per server (mean)',
        roster: perServer,
        naive: null,
        format: integer,
      },
      {
        scenario,
        metric: 'requests a day for the key',
        roster: run.key,
        naive: null,
        format: integer,
        target: { text: `≤ ${integer(KEY_DAY)}`, met: (v) => v <= KEY_DAY },
      },
      {
        scenario,
        metric: "share of the key's day",
        roster: run.key / KEY_DAY,
        naive: null,
        format: percent,
      },
      {
        scenario,
        metric: "doctor on the first server: servers' worth",
        roster: run.doctor.serversWorth,
        naive: null,
        format: fixed(1),
      },
      {
        scenario,
        metric: "doctor on the first server: the key's day estimated",
        roster: run.doctor.keyPerDay,
        naive: null,
        format: integer,
      },
      {
        scenario,
        metric: "the key's day as the first server's limiter counts it",
        roster: run.keyCounted,
        naive: null,
        format: integer,
      },
      {
        scenario,
        metric: `429s, wrong decisions (of ${integer(run.joins)} joins)`,
        roster: run.rateLimited + run.wrong,
        naive: null,
        format: integer,
        target: { text: '0', met: (v) => v === 0 },
      },
    );
  }
  return rows;
}

/** The method and what the rows show, for BENCHMARKS.md. */
export function dayBudgetNotes(results: DayBudgetResults): string[] {
  const s = results.setting;
  const notes = [
    `- **N servers on one key, a day.** ${s.members.toLocaleString('en-US')} members; each server keeps ${s.online} players online, ${s.joinsPerHour} connections an hour (a player leaving, another coming; ${Math.round(s.strangerShare * 100)} % not on the roster); staff make ${s.changesPerHour} changes an hour in the dashboard (promotions, suspensions and reinstatements, a new member). Each server is the resource's core wired as \`src/features/<feature>/index.ts\` wires it (mirror, audit feed, refresh plan, duty sessions, departments and ranks every 30 min) with the default config, on one virtual clock against one mock; the servers start 20 s apart, fill up, complete their first reads, run a quarter of an hour more, and then ${s.hours} virtual hours are counted${s.hours === 24 ? ': a whole day measured, not a shorter run scaled' : ', scaled to a day'}. Per server: what its own connection pool sent; for the key: what the mock counted. "created since" counts the mirror's passes and the later pages of its full re-reads, which are asked \`createdAt.after\` the last record read. "doctor" is \`dailyCost\` and \`keyOutlook\` on the first server's rates and counts at the end of the day, as \`roster doctor\` computes them.`,
  ];
  for (const run of results.runs) {
    const kinds = Object.entries(run.byKind)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, count]) => `${integer(count)} × ${kind}`)
      .join(', ');
    // Departments are read every 30 minutes in the background lane: fewer means background work gave way.
    const due = run.servers * 48;
    const catalog = run.byKind.departments ?? 0;
    const gaveWay =
      catalog < due - run.servers
        ? ` Departments were read ${integer(catalog)} times of ${integer(due)} due: background work gave way once the key's day as the limiters count it (their own and the others' seen) passed three quarters of ${integer(KEY_DAY)}.`
        : '';
    notes.push(
      `  ${run.servers} server${run.servers === 1 ? '' : 's'}: ${integer(run.key)} a day for the key (${kinds}); doctor on the first server estimated its own day at ${integer(run.doctor.own)} and the key's at ${integer(run.doctor.keyPerDay)} (${run.doctor.serversWorth.toFixed(1)} servers' worth); its limiter counted the key's rolling day at ${integer(run.keyCounted)}.${gaveWay}`,
    );
  }
  return notes;
}
