import type { AuditFeed } from '../../src/features/audit/audit-feed';
import { startAuditFeed } from '../../src/features/audit/audit-start';
import { scheduleRefresh } from '../../src/features/audit/refresh-plan';
import { MirrorSync } from '../../src/features/mirror/mirror-sync';
import { configSchema } from '../../src/kernel/config';
import { Schedule } from '../../src/kernel/schedule';
import { silentLogger } from '../../src/platform/ports';
import { RosterCatalog } from '../../src/roster/catalog';
import { createRosterApi, rosterUserAgent } from '../../src/roster/client';
import { MemberCache } from '../../src/roster/member-cache';
import { MemberResolver } from '../../src/roster/member-resolver';
import { OnlinePlayers } from '../../src/roster/online-players';
import { PlayerRegistry } from '../../src/roster/player-registry';
import { RosterErrors } from '../../src/roster/roster-errors';
import { seededRandom } from '../mock-http/seeded-random';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { CountingPool } from './counting-pool';
import { sleep, startGateServer } from './gate-servers';
import { choosePlayers } from './population';
import type { SteadyResult } from './report';
import { countKinds } from './request-log';
import { SERVICE_LATENCY_MS } from './storm-scenario';
import { VirtualClock } from './virtual-clock';

const HOUR_MS = 3_600_000;
/** start.ts reloads departments and ranks this often. */
const CATALOG_REFRESH_MS = 30 * 60_000;

export interface SteadyOptions {
  players: number;
  hours: number;
  /** Read the audit log every `refresh.auditSeconds` (the key has audit:read), as start.ts does. */
  auditFeed?: boolean;
  /** Dashboard changes (rank or status of an online player) per simulated hour; each is timed. */
  changesPerHour?: number;
  /**
   * Keep the whole roster on the server as src/features/mirror/index.ts does (with the audit
   * feed on): its first read happens before the counted hours, which then include its passes and
   * every full re-read that falls due.
   */
  mirror?: boolean;
}

/**
 * The resource's core (catalog, member resolver, online players, roster client and cache; default config) with 1,000 players
 * online, on a virtual clock: `hours` simulated hours of background refresh as start.ts schedules
 * it, against the mock whose rate-limit windows follow the same clock. Counts what the mock saw, per hour.
 */
export async function steadyStateRoster(options: SteadyOptions): Promise<SteadyResult> {
  const config = configSchema.parse({});
  let clock: VirtualClock | undefined;
  const mock = await startMockRoster({ port: 0, members: 2_000, seed: 1, now: () => clock!.now() });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const pool = new CountingPool(mock.url, { connections: 8 });
  clock = new VirtualClock(Date.UTC(2025, 5, 2, 12), () => pool.inFlight > 0);
  const api = createRosterApi({
    baseUrl: mock.url,
    apiKey: mock.keys.full,
    timeoutMs: config.api.timeoutMs,
    perMinute: config.rateLimit.perMinute,
    perDay: config.rateLimit.perDay,
    userAgent: rosterUserAgent('bench'),
    clock,
    logger: silentLogger,
    dispatcher: pool,
    random: seededRandom(3),
  });
  const cache = new MemberCache({
    maxEntries: config.cache.maxEntries,
    ttlMs: config.cache.ttlSeconds * 1000,
    negativeTtlMs: config.cache.negativeTtlSeconds * 1000,
    now: () => clock!.now(),
  });
  const players = new PlayerRegistry();
  /** Member id → when a dashboard change to them was made (virtual ms), until playerUpdated. */
  const changedAt = new Map<string, number>();
  const changeLatencyMs: number[] = [];
  const errors = new RosterErrors(clock, silentLogger);
  const catalog = new RosterCatalog({ source: api, clock, errors });
  const members = new MemberResolver({ source: api, cache, catalog, errors });
  const online = new OnlinePlayers({
    players,
    members,
    catalog,
    errors,
    events: {
      playerLoaded() {},
      playerUpdated(_src, member, previous) {
        const id = member?.id ?? previous?.id ?? '';
        const at = changedAt.get(id);
        if (at === undefined) return;
        changedAt.delete(id);
        changeLatencyMs.push(clock!.now() - at);
      },
    },
  });
  const schedule = new Schedule(clock, seededRandom(5));
  let sync: MirrorSync | null = null;
  try {
    // Start-up and the players' joins, as on a server that filled up: not counted.
    await catalog.load();
    choosePlayers(mock.data, options.players).forEach((player, index) => {
      const entry = { license: player.license, name: player.name, view: undefined, since: clock!.now() };
      players.add(String(index + 1), entry);
      void online.loadPlayer(String(index + 1), entry);
    });
    if (options.mirror) {
      sync = new MirrorSync({
        source: api,
        members,
        online,
        schedule,
        clock,
        logger: silentLogger,
        maxEntries: config.cache.maxEntries,
        passMs: config.refresh.auditSeconds * 1000,
        resyncMs: config.mirror.resyncMinutes * 60_000,
      });
      sync.begin();
      for (let waited = 0; sync.report().state.kind !== 'up'; waited += 10_000) {
        if (waited > 3_600_000) throw new Error('steady state: the mirror never completed its first read');
        await clock.run(10_000);
      }
    }
    await clock.run(120_000);
    const mark = mock.counters.log.length;
    let feed: AuditFeed | null = null;
    if (options.auditFeed || options.mirror) {
      feed = startAuditFeed(
        {
          api,
          catalog,
          members,
          online,
          players,
          cache,
          schedule,
          clock,
          logger: silentLogger,
          auditSeconds: config.refresh.auditSeconds,
          alsoReread: () => void sync?.resync(),
        },
        ['audit:read'],
      );
      if (feed && sync) sync.follow(feed);
    }
    scheduleRefresh({
      schedule,
      clock,
      members,
      online,
      intervalMs: config.refresh.intervalSeconds * 1000,
      feed: () => feed,
    });
    schedule.every(CATALOG_REFRESH_MS, () => catalog.load(), 0.1);
    if (options.changesPerHour)
      scheduleChanges(schedule, mock, players, changedAt, clock, options.changesPerHour);
    let passes = 0;
    const original = online.refreshOnline.bind(online);
    online.refreshOnline = (lane) => {
      passes++;
      return original(lane);
    };
    await clock.run(options.hours * HOUR_MS);
    const log = mock.counters.log.slice(mark);
    const byEndpoint: Record<string, number> = {};
    for (const entry of log)
      byEndpoint[entry.endpoint] = (byEndpoint[entry.endpoint] ?? 0) + 1 / options.hours;
    return {
      requestsPerHour: log.length / options.hours,
      onlinePlayers: players.onlineCount,
      refreshPasses: passes / options.hours,
      byEndpoint,
      rateLimited: log.filter((e) => e.status === 429).length,
      changeLatencyMs,
      changesMissed: changedAt.size,
      ...(sync ? { mirrorHeld: sync.report().held, byKind: countKinds(log, options.hours) } : {}),
    };
  } finally {
    sync?.stop();
    schedule.stop();
    await api.close();
    await pool.close();
    await mock.close();
  }
}

/**
 * Dashboard changes at random moments: every other one a promotion, the rest a suspension of a
 * random online player (through the mock's audited dashboard, as staff would make them).
 */
function scheduleChanges(
  schedule: Schedule,
  mock: MockRoster,
  players: PlayerRegistry,
  changedAt: Map<string, number>,
  clock: VirtualClock,
  perHour: number,
): void {
  const random = seededRandom(11);
  let n = 0;
  schedule.every(
    HOUR_MS / perHour,
    () => {
      const online = [...players.onlinePlayers()].filter(
        ([, e]) => e.view && e.view.member.status === 'ACTIVE',
      );
      const [, entry] = online[Math.floor(random() * online.length)] ?? [];
      const member = entry?.view?.member;
      if (!member || changedAt.has(member.id)) return;
      const held = member.departments.find((d) => d.rank && d.rank.position > 1);
      changedAt.set(member.id, clock.now());
      if (n++ % 2 === 0 && held?.rank) {
        mock.dashboard.setRank(member.id, `${held.rank.id.replace(/_\d+$/, '')}_${held.rank.position - 1}`);
      } else {
        mock.dashboard.setStatus(member.id, 'SUSPENDED');
      }
    },
    0.5,
  );
}

/**
 * The naive gate's steady state, time scaled: 1,000 players already online, its refresh every
 * 300 s / `scale` with a cache of the same (scaled) TTL, against a mock whose clock runs `scale`
 * times faster, so its per-minute limit applies per simulated minute. Counts `cycles` refreshes
 * and reports them per simulated hour.
 */
export async function steadyStateNaive(options: {
  players: number;
  scale: number;
  cycles: number;
}): Promise<SteadyResult> {
  const origin = Date.now();
  const mock = await startMockRoster({
    port: 0,
    members: 2_000,
    seed: 1,
    now: () => origin + (Date.now() - origin) * options.scale,
  });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const intervalSeconds = 300 / options.scale;
  const gate = await startGateServer('naive', mock, {
    deferStart: true,
    naive: { cacheSeconds: intervalSeconds, refreshSeconds: intervalSeconds },
  });
  try {
    // Players online before the gate starts (nothing defers them); its refresh then re-checks them.
    for (const player of choosePlayers(mock.data, options.players)) {
      gate.server.connectPlayer({ name: player.name, identifiers: [player.license] });
    }
    await sleep(50);
    const online = gate.server.playerList().length;
    gate.startGate();
    // The first pass starts one interval after the gate; count from just before it.
    await sleep(intervalSeconds * 1000 - 300);
    const mark = mock.counters.log.length;
    await sleep(options.cycles * intervalSeconds * 1000);
    const log = mock.counters.log.slice(mark);
    const perHour = 3_600 / 300 / options.cycles;
    const byEndpoint: Record<string, number> = {};
    for (const entry of log) byEndpoint[entry.endpoint] = (byEndpoint[entry.endpoint] ?? 0) + perHour;
    return {
      requestsPerHour: log.length * perHour,
      onlinePlayers: online,
      refreshPasses: 3_600 / 300,
      byEndpoint,
      rateLimited: log.filter((e) => e.status === 429).length * perHour,
    };
  } finally {
    gate.close();
    await mock.close();
  }
}
