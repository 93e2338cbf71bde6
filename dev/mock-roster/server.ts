import { CancellableSleeps } from '../mock-http/cancellable-sleeps';
import { startLoopbackServer } from '../mock-http/loopback-server';
import { MockCounters } from '../mock-http/mock-counters';
import { type ApiKeyRecord, buildKeys, DEFAULT_KEY_SPECS, type KeySpec } from './api-keys';
import { handleControl } from './control-endpoint';
import { MockDashboard } from './dashboard';
import { MockFaults } from './faults';
import { RateLimiter } from './rate-limiter';
import type { MockCommunity } from './records';
import { handleRequest } from './request-pipeline';
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
  const extra = options.keys ?? [];
  const specs = [...DEFAULT_KEY_SPECS.filter((d) => !extra.some((k) => k.name === d.name)), ...extra];
  const { records: keyRecords, tokens } = buildKeys(seed, specs);
  const store = new RosterStore(seedCommunity({ seed, members: options.members ?? 500 }), seed, now);
  const dashboard = new MockDashboard(store);
  const faults = new MockFaults(keyRecords, store.data.community, options.inlineAssignments ?? false);
  const counters = new MockCounters();
  const limiter = new RateLimiter(now);
  let url = '';
  const routes = buildRoutes(() => url);
  const sleeps = new CancellableSleeps();
  const deps = { routes, keys: keyRecords, store, faults, counters, limiter, now, sleep: sleeps.sleep };
  const server = await startLoopbackServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    name: 'mock roster',
    handle: (req, res) => {
      const path = new URL(req.url ?? '/', 'http://mock.invalid').pathname;
      return path.startsWith('/__mock/')
        ? handleControl(req, res, path, { faults, counters, dashboard })
        : handleRequest(deps, req, res);
    },
    beforeClose: () => sleeps.cancelAll(),
  });
  url = server.url;

  return {
    url,
    keys: Object.fromEntries(tokens) as MockRoster['keys'],
    keyRecords,
    keyId: (name) => {
      const key = keyRecords.find((k) => k.name === name);
      if (!key) throw new Error(`mock roster: no key ${name}`);
      return key.id;
    },
    community: store.data.community,
    faults,
    counters,
    data: store,
    dashboard,
    limiter,
    close: server.close,
  };
}
