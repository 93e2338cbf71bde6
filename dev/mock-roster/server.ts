import { keyNamed, withExtraKeys } from '../mock-http/api-keys';
import { MockCounters } from '../mock-http/mock-counters';
import { startMockService } from '../mock-http/mock-service';
import { RateLimiter } from '../mock-http/rate-limiter';
import { rosterApi } from './api';
import { type ApiKeyRecord, buildKeys, DEFAULT_KEY_SPECS, type KeySpec } from './api-keys';
import { handleControl } from './control-endpoint';
import { MockDashboard } from './dashboard';
import { MockFaults } from './faults';
import type { MockCommunity } from './records';
import { RosterStore } from './roster-store';
import { buildRoutes } from './routes';
import { seedCommunity } from './seed-community';

export interface MockRosterOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seeded members, 0–50,000 (default 500). */
  members?: number;
  /** Seed of the deterministic community (default 1). */
  seed?: number;
  /** Clock for rate-limit windows, audit stamps and the request log (default `Date.now`). Latency and hangs use real time. */
  now?: () => number;
  /** Keys added to the default ones (a key with a default's name replaces it). */
  keys?: readonly KeySpec[];
  /** Members carry `departmentAssignments` inline from the start (default false). */
  inlineAssignments?: boolean;
}

export type DefaultKeyName =
  | 'full'
  | 'readOnly'
  | 'rosterOnly'
  | 'rosterWrite'
  | 'departmentsWrite'
  | 'lowLimit'
  | 'revoked'
  | 'expired'
  | 'allowlisted';

export interface MockRoster {
  /** e.g. `http://127.0.0.1:4010` — what `roster_base_url` is set to. */
  url: string;
  /** Tokens (`rstr_<id>_<secret>`) by key name. */
  keys: Record<DefaultKeyName, string> & Record<string, string>;
  /** The key records (id, scopes, limits, revoked…); change them freely. */
  keyRecords: ApiKeyRecord[];
  keyId(name: string): string;
  community: MockCommunity;
  faults: MockFaults;
  counters: MockCounters;
  /** The data, fixtures and mutation helpers. */
  data: RosterStore;
  /** Changes as staff make them in the dashboard, each with its audit entry. */
  dashboard: MockDashboard;
  limiter: RateLimiter;
  close(): Promise<void>;
}

/** Starts the mock roster service on loopback; resolves once it listens. */
export async function startMockRoster(options: MockRosterOptions = {}): Promise<MockRoster> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const { records: keyRecords, tokens } = buildKeys(
    seed,
    withExtraKeys(DEFAULT_KEY_SPECS, options.keys ?? []),
  );
  const store = new RosterStore(seedCommunity({ seed, members: options.members ?? 500 }), seed, now);
  const dashboard = new MockDashboard(store);
  const faults = new MockFaults(keyRecords, store.data.community, options.inlineAssignments ?? false);
  const counters = new MockCounters();
  const limiter = new RateLimiter(now);
  const server = await startMockService({
    port: options.port,
    host: options.host,
    name: 'mock roster',
    now,
    faults,
    counters,
    api: (baseUrl) =>
      rosterApi({ routes: buildRoutes(baseUrl), keys: keyRecords, store, faults, limiter, now }),
    control: (req, res, path) => handleControl(req, res, path, { faults, counters, dashboard }),
  });

  return {
    url: server.url,
    keys: Object.fromEntries(tokens) as MockRoster['keys'],
    keyRecords,
    keyId: (name) => keyNamed(keyRecords, name, (k) => k.id, 'mock roster').id,
    community: store.data.community,
    faults,
    counters,
    data: store,
    dashboard,
    limiter,
    close: server.close,
  };
}
