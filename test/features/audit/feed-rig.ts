import { AuditFeed } from '../../../src/features/audit/audit-feed';
import { type Logger, silentLogger } from '../../../src/platform/ports';
import { RosterCatalog } from '../../../src/roster/catalog';
import { MemberCache } from '../../../src/roster/member-cache';
import { MemberResolver } from '../../../src/roster/member-resolver';
import type { Catalog, MemberLookup } from '../../../src/roster/model';
import { OnlinePlayers } from '../../../src/roster/online-players';
import { PlayerRegistry } from '../../../src/roster/player-registry';
import { RosterErrors } from '../../../src/roster/roster-errors';
import type { RosterSource } from '../../../src/roster/roster-source';
import { FakeClock } from '../../http/limiter/fake-clock';

export const catalog: Catalog = {
  departments: [{ id: 'd1', name: 'Police', shortName: 'PD' }],
  ranks: [
    { id: 'r1', departmentId: 'd1', name: 'Chief', position: 1 },
    { id: 'r2', departmentId: 'd1', name: 'Officer', position: 2 },
  ],
};

/** A logger that keeps the warnings. */
export function recordingLogger() {
  const warnings: string[] = [];
  const logger: Logger = { error() {}, info() {}, debug() {}, warn: (line) => warnings.push(line) };
  return { logger, warnings };
}

/** Member `n`: id `m<n>`, license `license:<n>`, one assignment `as<n>` in d1. */
export function memberRecord(n: number, status = 'ACTIVE'): MemberLookup {
  return {
    member: { id: `m${n}`, name: `Member ${n}`, status, gameLicense: `license:${n}` },
    assignments: [
      {
        id: `as${n}`,
        memberId: `m${n}`,
        departmentId: 'd1',
        rankId: 'r2',
        isPrimary: true,
        callsign: null,
        rank: null,
      },
    ],
  };
}

/**
 * The roster core (real cache, service and player registry) over a fake source whose records a
 * test changes, and an in-memory audit log served as the service serves it: `createdAt.after`
 * exclusive, sorted by `createdAt`, at most `passSize` entries a read. The service's clock (its
 * stamps and its `Date` header) is the test clock plus `skewMs`.
 */
export function feedRig(
  options: {
    skewMs?: number;
    passSize?: number;
    logger?: Logger;
    entriesRead?: (fresh: readonly unknown[]) => void;
  } = {},
) {
  const gaps: string[] = [];
  const clock = new FakeClock(Date.UTC(2025, 5, 2, 12));
  const roster = new Map<string, MemberLookup>();
  const lookups: string[][] = [];
  const reads: Record<string, string>[] = [];
  /** How many entries each `list` read brought. */
  const listedCounts: number[] = [];
  const log: Record<string, unknown>[] = [];
  const state = { failLookups: false, catalogLoads: 0 };
  const source = {
    catalog: async () => {
      state.catalogLoads++;
      return catalog;
    },
    lookupMany: async (licenses: readonly string[]) => {
      lookups.push([...licenses]);
      if (state.failLookups) throw new Error('service down');
      return new Map(licenses.map((l) => [l, roster.get(l) ?? null]));
    },
    lookup: async (license: string) => roster.get(license) ?? null,
  } as unknown as RosterSource;
  const cache = new MemberCache({
    maxEntries: 1000,
    ttlMs: 600_000,
    negativeTtlMs: 60_000,
    now: () => clock.now(),
  });
  const players = new PlayerRegistry();
  const updated: string[] = [];
  const errors = new RosterErrors(clock, silentLogger);
  const rosterCatalog = new RosterCatalog({ source, clock, errors });
  const members = new MemberResolver({ source, cache, catalog: rosterCatalog, errors });
  const onlinePlayers = new OnlinePlayers({
    players,
    members,
    catalog: rosterCatalog,
    errors,
    events: { playerLoaded() {}, playerUpdated: (src) => updated.push(src) },
  });
  const serviceNow = () => clock.now() + (options.skewMs ?? 0);
  // The service's history before this server started.
  log.push({ id: 'old-1', createdAt: new Date(serviceNow() - 3_600_000).toISOString(), ref: 'm-gone' });
  log.push({ id: 'old-2', createdAt: new Date(serviceNow() - 600_000).toISOString(), ref: 'as-gone' });
  const passSize = options.passSize ?? 2000;
  const feed = new AuditFeed({
    list: async (query) => {
      reads.push(query as Record<string, string>);
      const after = query['createdAt.after'];
      const from = after === undefined ? Number.NEGATIVE_INFINITY : Date.parse(String(after));
      const page = log
        .filter((e) => Date.parse(String(e.createdAt)) > from)
        .sort((a, b) => Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt)))
        .slice(0, passSize);
      listedCounts.push(page.length);
      return page;
    },
    passSize,
    gap: (reason) => gaps.push(reason),
    newest: async () => {
      reads.push({ newest: 'true' });
      return [...log]
        .sort((a, b) => Date.parse(String(b.createdAt)) - Date.parse(String(a.createdAt)))
        .slice(0, 2);
    },
    catalog: rosterCatalog,
    online: onlinePlayers,
    players,
    cache,
    clock,
    serviceTime: serviceNow,
    logger: options.logger ?? silentLogger,
    intervalMs: 60_000,
    ...(options.entriesRead ? { entriesRead: options.entriesRead } : {}),
  });
  let sequence = 0;
  return {
    clock,
    gaps,
    roster,
    lookups,
    reads,
    listedCounts,
    log,
    state,
    cache,
    players,
    rosterCatalog,
    updated,
    feed,
    /** The feed's first read, which anchors it on the log as it stands (the resource starting). */
    async start(): Promise<void> {
      await feed.poll();
    },
    /** Writes `count` entries, one service millisecond apart; `make(i)` gives each one's content. */
    burst(count: number, make: (i: number) => Record<string, unknown> = () => ({})): void {
      const start = serviceNow() - count;
      for (let i = 0; i < count; i++)
        log.push({ id: `b${++sequence}`, createdAt: new Date(start + i).toISOString(), ...make(i) });
    },
    /** Writes an entry stamped with the log's clock (unless it has its own `createdAt`). */
    write(entry: Record<string, unknown>): Record<string, unknown> {
      const record = { id: `e${++sequence}`, createdAt: new Date(serviceNow()).toISOString(), ...entry };
      log.push(record);
      return record;
    },
    /** Member `n` on the roster and held in the cache, as after a join. */
    async known(n: number, status = 'ACTIVE'): Promise<string> {
      roster.set(`license:${n}`, memberRecord(n, status));
      await rosterCatalog.load();
      await members.fetch(`license:${n}`, 'refresh');
      return `license:${n}`;
    },
    /** Member `n` online as player `src`, loaded. */
    async online(n: number, src = String(n)): Promise<void> {
      const license = await this.known(n);
      const entry = { license, name: `Member ${n}`, view: undefined, since: clock.now() };
      players.add(src, entry);
      await onlinePlayers.loadPlayer(src, entry);
    },
  };
}
