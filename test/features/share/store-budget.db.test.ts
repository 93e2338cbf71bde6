import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { ShareDatabase, type ShareServer, type TestStore } from './share-db-rig';

// The key's shared minute and day, counted by several stores on two servers at once.
let shared: ShareDatabase;
let main: ShareServer;
let events: ShareServer;
let keys = 0;

beforeAll(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
  events = await shared.server();
});

afterAll(() => shared?.close());

async function storesOfOneKey(): Promise<{ keyHash: string; stores: TestStore[] }> {
  const keyHash = shareKeyHash(`rk_budget${++keys}_secret`);
  const stores = [
    main.store({ keyHash }),
    main.store({ keyHash }),
    events.store({ keyHash }),
    events.store({ keyHash }),
  ];
  await stores[0]?.migrate();
  return { keyHash, stores };
}

const windowSums = async (keyHash: string) =>
  shared.query(
    'SELECT period, CAST(SUM(requests) AS SIGNED) AS total FROM roster_share_budget WHERE key_hash = ? GROUP BY period ORDER BY period',
    [keyHash],
  );

describe('the shared budget', () => {
  it('adds up the requests of every store at once, each told a total of its own', async () => {
    const { keyHash, stores } = await storesOfOneKey();
    const answers = await Promise.all(
      stores.map(async (store) => {
        const told: number[] = [];
        for (let i = 0; i < 25; i++) told.push((await store.count(1)).day);
        return told;
      }),
    );
    expect(await windowSums(keyHash)).toEqual([
      { period: 'd', total: 100 },
      { period: 'm', total: 100 },
    ]);
    // Atomic increments: no two calls saw the same total.
    expect(answers.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const now = await stores[0]!.budget();
    expect(now.day).toBe(100);
  });

  it('counts several requests at once, answers a new window from what was added, and 0 reads the counts', async () => {
    const { stores } = await storesOfOneKey();
    const [a, b] = stores as [TestStore, TestStore];
    expect(await a.count(3)).toMatchObject({ day: 3 });
    expect(await b.count(4)).toMatchObject({ day: 7 });
    // A key with no window yet, counted on connections that just answered another key's total.
    const other = (await storesOfOneKey()).stores[0]!;
    expect(await other.count(2)).toEqual({ minute: 2, day: 2 });
    expect((await a.count(0)).day).toBe(7);
    expect((await a.budget()).day).toBe(7);
  });

  it('deletes windows long past now and then, and keeps the recent ones', async () => {
    const { keyHash, stores } = await storesOfOneKey();
    const [now] = await shared.query(
      "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000 AS now",
    );
    const at = Number(now?.now);
    const minute = (ago: number) => at - ago - ((at - ago) % 60_000);
    const day = (ago: number) => at - ago - ((at - ago) % 86_400_000);
    for (const [period, start] of [
      ['m', minute(2 * 3_600_000)],
      ['m', minute(30 * 60_000)],
      ['d', day(3 * 86_400_000)],
      ['d', day(86_400_000)],
    ] as const) {
      await shared.query('INSERT INTO roster_share_budget VALUES (?, ?, ?, 9)', [keyHash, period, start]);
    }
    await shared.query('INSERT INTO roster_share_writes VALUES (?, ?, 1, ?)', [
      'f'.repeat(32),
      keyHash,
      at - 2 * 3_600_000,
    ]);
    await stores[0]!.count(1);
    const kept = await shared.query(
      'SELECT period, window_start FROM roster_share_budget WHERE key_hash = ? AND requests = 9 ORDER BY period, window_start',
      [keyHash],
    );
    expect(kept).toEqual([
      { period: 'd', window_start: day(86_400_000) },
      { period: 'm', window_start: minute(30 * 60_000) },
    ]);
    expect(await shared.query('SELECT token FROM roster_share_writes WHERE key_hash = ?', [keyHash])).toEqual(
      [],
    );
  });
});

describe("each server's pace", () => {
  it("adds each server's requests at once and answers every server's last minute, windows older left out", async () => {
    const { keyHash, stores } = await storesOfOneKey();
    const [a, b, c, d] = stores as [TestStore, TestStore, TestStore, TestStore];
    await Promise.all([
      ...Array.from({ length: 20 }, () => a.pace('main', 1)),
      ...Array.from({ length: 20 }, () => b.pace('main', 2)),
      ...Array.from({ length: 10 }, () => c.pace('events', 1)),
    ]);
    const [now] = await shared.query(
      "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000 AS now",
    );
    const at = Number(now?.now);
    // A window from before the last minute, and one of another key: neither is counted.
    await shared.query('INSERT INTO roster_share_pace VALUES (?, ?, ?, 50)', [
      keyHash,
      at - 70_000 - (at % 5_000),
      'events',
    ]);
    await shared.query('INSERT INTO roster_share_pace VALUES (?, ?, ?, 50)', ['0'.repeat(64), at, 'main']);
    // Windows long past are deleted now and then; the one just past the minute is kept a while.
    await shared.query('INSERT INTO roster_share_pace VALUES (?, ?, ?, 7)', [
      keyHash,
      at - 200_000,
      'events',
    ]);
    const requests = (pace: ReadonlyMap<string, { requests: number }>) =>
      Object.fromEntries([...pace].map(([server, { requests }]) => [server, requests]));
    const first = await d.pace('dev', 0);
    expect(requests(first)).toEqual({ main: 60, events: 10 });
    // Both sent just now: idle at most a window's length.
    for (const { idleMs } of first.values()) expect(idleMs).toBeLessThan(5_000);
    expect(
      await shared.query('SELECT requests FROM roster_share_pace WHERE key_hash = ? AND window_start < ?', [
        keyHash,
        at - 60_000,
      ]),
    ).toEqual([{ requests: 50 }]);
    expect(requests(await d.pace('dev', 3))).toEqual({ main: 60, events: 10, dev: 3 });
  });
});
