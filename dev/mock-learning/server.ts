import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockCounters } from '../mock-roster/counters';
import { buildKeys, DEFAULT_KEY_SPECS, type KeySpec, type LearningKey } from './api-keys';
import { LearningFaults } from './faults';
import { LearningStore } from './learning-store';
import { MinuteLimiter } from './minute-limiter';
import type { LearningOrg, OrgFlags } from './records';
import { handleRequest } from './request-pipeline';
import { buildRoutes } from './routes';
import { DISCORD_IDS, seedOrganisation } from './seed-organisation';

export { DISCORD_IDS } from './seed-organisation';

export interface MockLearningOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed of the deterministic organisation and key secrets (default 1). */
  seed?: number;
  /** Clock for expiries, stamps, the rate-limit window and the request log (default `Date.now`). */
  now?: () => number;
  /** Seeded users, at least 6 (default 12). */
  users?: number;
  /** Who is linked at start (`user` = index or user_sub); replaces the default users 0–3 ↔ DISCORD_IDS[0..3]. */
  links?: readonly { discordId: string; user: number | string }[];
  /** Org feature flags (default all on). */
  flags?: Partial<OrgFlags>;
  /** Keys added to the defaults (one with a default's name replaces it). */
  keys?: readonly KeySpec[];
  /** Default page size of completion lists; null (default) = whole lists. */
  pageSize?: number | null;
  /** Requests per key per calendar minute; null (default) = no limit. */
  perMinute?: number | null;
}

export type DefaultKeyName = 'enroll' | 'read' | 'none' | 'revoked';

export interface MockLearning {
  /** e.g. `http://127.0.0.1:4020` — what `training.baseUrl` is set to. */
  url: string;
  /** Tokens (`lms_<prefix>_<secret>`) by key name. */
  keys: Record<DefaultKeyName, string> & Record<string, string>;
  keyRecords: LearningKey[];
  /** The `<prefix>` of a named key (what counters and the log use). */
  keyPrefix(name: string): string;
  org: LearningOrg;
  /** The data, fixtures and mutation helpers (`confirmLink`, `link`, …). */
  data: LearningStore;
  faults: LearningFaults;
  counters: MockCounters;
  close(): Promise<void>;
}

/** Starts the mock learning service on loopback; resolves once it listens. */
export async function startMockLearning(options: MockLearningOptions = {}): Promise<MockLearning> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const extra = options.keys ?? [];
  const specs = [...DEFAULT_KEY_SPECS.filter((d) => !extra.some((k) => k.name === d.name)), ...extra];
  const { records: keyRecords, tokens } = buildKeys(seed, specs);
  const flags: OrgFlags = { discord: true, gamification: true, api_access: true, ...options.flags };
  const store = new LearningStore(
    seedOrganisation({ seed, users: options.users ?? 12, now: now(), flags }),
    seed,
    now,
  );
  const links = options.links ?? DISCORD_IDS.slice(0, 4).map((discordId, user) => ({ discordId, user }));
  for (const { discordId, user } of links) {
    const sub = typeof user === 'number' ? store.users[user]?.user_sub : user;
    if (sub === undefined || !store.user(sub)) throw new Error(`mock learning: no user ${user} to link`);
    store.link(discordId, sub);
  }
  const faults = new LearningFaults(keyRecords, store.org, {
    perMinute: options.perMinute ?? null,
    pageSize: options.pageSize ?? null,
  });
  const counters = new MockCounters();
  const limiter = new MinuteLimiter(now);
  let url = '';
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const deps = {
    routes: buildRoutes(),
    keys: keyRecords,
    store,
    faults,
    counters,
    limiter,
    now,
    sleep,
    baseUrl: () => url,
  };

  const server: Server = createServer((req, res) => {
    handleRequest(deps, req, res).catch((error: unknown) => {
      // A bug in the mock itself: answer rather than leave the client waiting.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`mock learning failure: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;

  return {
    url,
    keys: Object.fromEntries(tokens) as MockLearning['keys'],
    keyRecords,
    keyPrefix: (name) => {
      const key = keyRecords.find((k) => k.name === name);
      if (!key) throw new Error(`mock learning: no key ${name}`);
      return key.prefix;
    },
    org: store.org,
    data: store,
    faults,
    counters,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Hung and keep-alive connections would hold close() open forever.
        server.closeAllConnections();
      }),
  };
}
