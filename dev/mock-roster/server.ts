import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiKeyRecord, buildKeys, DEFAULT_KEY_SPECS, type KeySpec } from './api-keys';
import { handleControl } from './control-endpoint';
import { MockCounters } from './counters';
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
  const faults = new MockFaults(keyRecords, store.data.community, options.inlineAssignments ?? false);
  const counters = new MockCounters();
  const limiter = new RateLimiter(now);
  let url = '';
  const routes = buildRoutes(() => url);
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const deps = { routes, keys: keyRecords, store, faults, counters, limiter, now, sleep };

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://mock.invalid').pathname;
    const work = path.startsWith('/__mock/')
      ? handleControl(req, res, path, { faults, counters })
      : handleRequest(deps, req, res);
    work.catch((error: unknown) => {
      // A bug in the mock itself: answer rather than leave the client waiting.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`mock roster failure: ${(error as Error).message}`);
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
    limiter,
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
