import { keyNamed, withExtraKeys } from '../mock-http/api-keys';
import { MockCounters } from '../mock-http/mock-counters';
import { startMockService } from '../mock-http/mock-service';
import { RateLimiter } from '../mock-http/rate-limiter';
import { learningApi } from './api';
import { buildKeys, DEFAULT_KEY_SPECS, type KeySpec, type LearningKey } from './api-keys';
import { LearningFaults } from './faults';
import { LearningStore } from './learning-store';
import type { LearningOrg, OrgFlags } from './records';
import { DEFAULT_LINK_REPLY_NAMES, type LinkReplyNames } from './route';
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
  /** Other names for the pending link reply's fields (code, confirm URL, expiry), in replies and schema. */
  linkReplyNames?: Partial<LinkReplyNames>;
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
  const { records: keyRecords, tokens } = buildKeys(
    seed,
    withExtraKeys(DEFAULT_KEY_SPECS, options.keys ?? []),
  );
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
  const limiter = new RateLimiter(now);
  const linkReplyNames = { ...DEFAULT_LINK_REPLY_NAMES, ...options.linkReplyNames };
  const server = await startMockService({
    port: options.port,
    host: options.host,
    name: 'mock learning',
    now,
    faults,
    counters,
    api: (baseUrl) =>
      learningApi({
        routes: buildRoutes(),
        keys: keyRecords,
        store,
        faults,
        limiter,
        now,
        baseUrl,
        linkReplyNames,
      }),
  });

  return {
    url: server.url,
    keys: Object.fromEntries(tokens) as MockLearning['keys'],
    keyRecords,
    keyPrefix: (name) => keyNamed(keyRecords, name, (k) => k.prefix, 'mock learning').prefix,
    org: store.org,
    data: store,
    faults,
    counters,
    close: server.close,
  };
}
