import { describe, expect, it } from 'vitest';
import { FleetUsage } from '../../../src/features/share/fleet-usage';
import { FOLLOW_MS } from '../../../src/features/share/share-timing';
import { SHARE_SCHEMAS } from '../../../src/features/share/shared-record';
import { MemoryShareStore, MemoryShareTables } from '../../../src/features/share/store-memory';
import type { Lane } from '../../../src/http';
import { RateLimiter } from '../../../src/http/limiter/rate-limiter';
import { KeyBatcher } from '../../../src/roster/client/key-batcher';
import { LOOKUP_HOLD_MS } from '../../../src/roster/client/member-lookups';
import { FakeClock, maxInAnyWindow } from '../../http/limiter/fake-clock';

/**
 * A model of the fleet the benchmark runs: four servers, each its own limiter, sharing one key's
 * counts through one database as the sharing feature does (each server adds what was answered
 * and reads the others' about once a second), 50 ms answers, and 500 joins on each server in 60 s
 * of which a fifth are strangers looked up from the service in batches.
 */
const KEY = 'a'.repeat(64);
const PER_MINUTE = 120;
const ANSWER_MS = 50;
const SERVERS = 4;
const JOINS = 500;
const SPAN_MS = 60_000;
/** The reader's audit poll, the fleet's background. */
const AUDIT_MS = 15_000;

interface FleetServer {
  limiter: RateLimiter;
  lookups: KeyBatcher<boolean>;
  usage: FleetUsage;
  answered: number;
  syncedAt: number | null;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

async function fleetRound(options: { servers: number; start: number }) {
  const clock = new FakeClock(options.start);
  const tables = new MemoryShareTables(clock);
  const sends: number[] = [];
  /** The service's count of each calendar minute, by its end. */
  const windows = new Map<number, number>();
  const refused = { count: 0 };
  const servers: FleetServer[] = [];
  for (let k = 0; k < options.servers; k++) {
    const limiter = new RateLimiter({ perMinute: PER_MINUTE, perDay: 25_000, clock });
    const store = new MemoryShareStore(tables, KEY, SHARE_SCHEMAS);
    await store.migrate();
    const server: FleetServer = {
      limiter,
      usage: new FleetUsage(store, clock, `server-${k + 1}`),
      answered: 0,
      syncedAt: null,
      lookups: new KeyBatcher<boolean>({
        acquire: (lane: Lane, signal, front) => limiter.acquire(lane, { signal, front }),
        fetchBatch: (keys) => answer(() => new Map(keys.map((key) => [key, false]))),
        param: 'gameLicense',
        clock,
        holdMs: { join: LOOKUP_HOLD_MS },
        limiterBusy: (lane) => limiter.isBusy(lane),
      }),
    };
    // A request answered 50 ms after its permit with the key's window in its headers (the
    // service counts calendar minutes), counted once answered.
    function answer<T>(value: () => T): Promise<T> {
      const sentAt = clock.now();
      sends.push(sentAt);
      const windowEnd = sentAt - (sentAt % 60_000) + 60_000;
      const inWindow = (windows.get(windowEnd) ?? 0) + 1;
      windows.set(windowEnd, inWindow);
      return new Promise((resolve) =>
        clock.setTimeout(() => {
          server.answered++;
          const info = {
            limit: PER_MINUTE,
            remaining: Math.max(0, PER_MINUTE - inWindow),
            resetAtMs: windowEnd,
          };
          if (inWindow > PER_MINUTE) {
            refused.count++;
            limiter.pauseAfterRateLimited({ ...info, retryAfterMs: windowEnd - clock.now() });
          } else limiter.observe({ ...info, resetInMs: windowEnd - clock.now() });
          resolve(value());
        }, ANSWER_MS),
      );
    }
    limiter.shareWith(() => (server.syncedAt === null ? null : server.usage.others(server.syncedAt)));
    // The sharing feature's tick: the counts about once a second, each server at its own phase.
    const tick = async () => {
      const sent = server.answered;
      server.answered = 0;
      await server.usage.count(sent);
      server.syncedAt = clock.now();
    };
    const every = (ms: number, first: number, run: () => void) => {
      const again = () => {
        run();
        clock.setTimeout(again, ms);
      };
      clock.setTimeout(again, first);
    };
    every(FOLLOW_MS, (k * FOLLOW_MS) / options.servers, () => void tick());
    if (k === 0) {
      every(AUDIT_MS, 1_000, () => void limiter.acquire('background').then(() => answer(() => true)));
    }
    servers.push(server);
  }
  // A minute of quiet before the joins, as in the benchmark once every mirror is complete.
  await clock.advance(65_000);
  const began = clock.now();
  const waits: number[] = [];
  const random = seeded(42);
  for (let k = 0; k < options.servers; k++) {
    const server = servers[k]!;
    for (let i = 0; i < JOINS; i++) {
      if (random() >= 0.2) continue;
      const at = (k * SPAN_MS) / (JOINS * options.servers) + (i * SPAN_MS) / JOINS;
      clock.setTimeout(() => {
        const arrived = clock.now();
        void server.lookups.get(`license:${k}-${i}`, 'join').then(() => waits.push(clock.now() - arrived));
      }, at);
    }
  }
  await clock.advance(SPAN_MS + 60_000);
  for (const server of servers) server.limiter.close();
  waits.sort((a, b) => a - b);
  const quantile = (q: number) => waits[Math.min(waits.length - 1, Math.ceil(q * waits.length) - 1)] ?? 0;
  return {
    strangers: waits.length,
    rateLimited: refused.count,
    p50: quantile(0.5),
    p99: quantile(0.99),
    max: waits.at(-1) ?? 0,
    mostIn60s: maxInAnyWindow(
      sends.filter((at) => at >= began - 60_000),
      60_000,
    ),
  };
}

describe('four servers sharing one key: the strangers of a join storm on each', () => {
  // The joins begin at several points of the database's minute.
  for (const second of [0, 20, 45]) {
    it(`each wait about one fair spacing (2 s), never a minute's turn (joins from second ${second})`, async () => {
      const round = await fleetRound({ servers: SERVERS, start: Date.UTC(2026, 0, 1, 12, 0, second) });
      expect(round.strangers).toBeGreaterThan(350);
      expect(round.p99).toBeLessThanOrEqual(2_500);
      expect(round.rateLimited).toBe(0);
      expect(round.mostIn60s).toBeLessThanOrEqual(PER_MINUTE);
      // One server alone, the same storm: its strangers wait no more than the hold, as before.
      const alone = await fleetRound({ servers: 1, start: Date.UTC(2026, 0, 1, 12, 0, second) });
      expect(alone.p99).toBeLessThanOrEqual(LOOKUP_HOLD_MS + ANSWER_MS);
    });
  }
});
