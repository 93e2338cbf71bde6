import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHARED_START,
  type SharedCursor,
  type SharedMemberRow,
} from '../../../src/features/share/share-store';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { member, ShareDatabase, type ShareServer, type TestRecord, type TestStore } from './share-db-rig';

// The shared members: versions under writers on two servers at once, the newer read kept, rows
// that do not parse, and another key's rows.
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

async function freshKey(): Promise<string> {
  const keyHash = shareKeyHash(`rk_members${++keys}_secret`);
  await main.store({ keyHash }).migrate();
  return keyHash;
}

/** Every row after `cursor`, page by page; the cursor moved past them. */
async function readAll(store: TestStore, cursor: SharedCursor, limit = 7) {
  const rows: SharedMemberRow<TestRecord>[] = [];
  let unreadable = 0;
  for (;;) {
    const page = await store.membersSince(cursor, limit);
    rows.push(...page.rows);
    unreadable += page.unreadable;
    cursor = page.next;
    if (page.done) return { rows, unreadable, cursor };
  }
}

describe('versions', () => {
  it('under writers on two servers at once, a follower moving its cursor misses no row', async () => {
    const keyHash = await freshKey();
    const writers = [main.store({ keyHash }), events.store({ keyHash }), main.store({ keyHash })];
    const reader = writers[0]!;
    expect(await reader.lease('main', 60_000)).toBe(true);
    const follower = events.store({ keyHash });
    const seen = new Set<string>();
    let cursor = SHARED_START;
    let writing = true;
    const follow = (async () => {
      while (writing) {
        const read = await readAll(follower, cursor);
        for (const row of read.rows) seen.add(row.memberId);
        cursor = read.cursor;
      }
    })();
    const versions = await Promise.all(
      writers.map(async (store, w) => {
        const mine: number[] = [];
        for (let write = 0; write < 25; write++) {
          const members = [0, 1, 2].map((m) => member(`w${w}-${write}-${m}`, 'x', write));
          const version =
            w === 0
              ? await store.publish('main', { members, auditPosition: { at: `${write}` } })
              : await store.writeThrough({ members });
          mine.push(version ?? -1);
        }
        return mine;
      }),
    );
    writing = false;
    await follow;
    for (const row of (await readAll(follower, cursor)).rows) seen.add(row.memberId);
    const all = versions.flat().sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 75 }, (_, i) => i + 1));
    for (const mine of versions) expect(mine).toEqual([...mine].sort((a, b) => a - b));
    expect(seen.size).toBe(225);
    // Each write's rows carry the version it answered.
    const rows = await readAll(follower, SHARED_START, 500);
    const byId = new Map(rows.rows.map((row) => [row.memberId, row.version]));
    versions.forEach((mine, w) => {
      mine.forEach((version, write) => {
        expect(byId.get(`w${w}-${write}-0`)).toBe(version);
      });
    });
  });

  it('pages through one version of many rows by member id', async () => {
    const keyHash = await freshKey();
    const store = main.store({ keyHash });
    const ids = Array.from({ length: 23 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    await store.writeThrough({ members: ids.map((id) => member(id, id, 1)) });
    const read = await readAll(store, SHARED_START, 5);
    expect(read.rows.map((row) => row.memberId)).toEqual(ids);
    expect(read.cursor).toEqual({ version: 1, memberId: 'm22' });
  });

  it('passes no row above the version asked up to: the cursor stays below it', async () => {
    const keyHash = await freshKey();
    const store = main.store({ keyHash });
    await store.writeThrough({ members: [member('m1', 'Ann', 1)] });
    await store.writeThrough({ members: [member('m2', 'Bo', 2)] });
    const page = await store.membersSince(SHARED_START, 10, 1);
    expect(page.rows.map((row) => row.memberId)).toEqual(['m1']);
    expect(page.next).toEqual({ version: 1, memberId: 'm1' });
    expect((await store.membersSince(page.next, 10, 2)).rows.map((row) => row.memberId)).toEqual(['m2']);
  });
});

describe('a write through', () => {
  it('makes the key’s state row again if it went, and writes under its first version', async () => {
    const keyHash = await freshKey();
    await shared.query('DELETE FROM roster_share_state WHERE key_hash = ?', [keyHash]);
    const store = events.store({ keyHash });
    expect(await store.writeThrough({ members: [member('m1', 'Ann', 1)] })).toBe(1);
    expect((await store.membersSince(SHARED_START, 10)).rows.map((row) => row.version)).toEqual([1]);
  });
});

describe('the newer read', () => {
  it('stays: an older write changes nothing (not even the version), a removal keeps the license', async () => {
    const keyHash = await freshKey();
    const a = main.store({ keyHash });
    const b = events.store({ keyHash });
    expect(await a.writeThrough({ members: [member('m1', 'new', 200, 3)] })).toBe(1);
    expect(await b.writeThrough({ members: [member('m1', 'old', 100, 1)] })).toBe(2);
    expect((await readAll(a, SHARED_START)).rows).toEqual([
      {
        memberId: 'm1',
        license: member('m1', '', 0).license,
        record: { name: 'new', rank: 3 },
        readAt: 200,
        version: 1,
      },
    ]);
    expect(await b.writeThrough({ removed: [{ memberId: 'm1', readAt: 300 }] })).toBe(3);
    expect(await a.writeThrough({ members: [member('m1', 'stale', 250)] })).toBe(4);
    expect((await readAll(a, SHARED_START)).rows).toEqual([
      { memberId: 'm1', license: member('m1', '', 0).license, record: null, readAt: 300, version: 3 },
    ]);
    expect(await a.writeThrough({ members: [member('m1', 'back', 300, 2)] })).toBe(5);
    expect((await readAll(a, { version: 3, memberId: 'm1' })).rows).toEqual([
      {
        memberId: 'm1',
        license: member('m1', '', 0).license,
        record: { name: 'back', rank: 2 },
        readAt: 300,
        version: 5,
      },
    ]);
  });
});

describe('rows that do not parse', () => {
  it('are skipped and counted, and the cursor moves past them', async () => {
    const keyHash = await freshKey();
    const store = main.store({ keyHash });
    await store.writeThrough({ members: [member('a', 'ok', 1)] });
    const insert = (memberId: string, license: string | null, record: string | null) =>
      shared.query(
        'INSERT INTO roster_share_members (key_hash, member_id, license, record, read_at, version) VALUES (?, ?, ?, ?, 5, 2)',
        [keyHash, memberId, license, record],
      );
    await insert('b', 'license:b', '{"name": "no closing brace"');
    await insert('c', 'license:c', '{"name": 7, "rank": 1}');
    await insert('d', 'license:d', '[1, 2]');
    await insert('e', null, '{"name": "no license", "rank": 1}');
    await insert('f', '', '{"name": "empty license", "rank": 1}');
    await insert('g', 'license:g', '{"name": "fine", "rank": 4}');
    await insert('h', 'license:h', 'null');
    const page = await store.membersSince(SHARED_START, 20);
    expect(page.rows.map((row) => row.memberId)).toEqual(['a', 'g']);
    expect(page.unreadable).toBe(6);
    expect(page.next).toEqual({ version: 2, memberId: 'h' });
  });

  it('a state row whose audit position does not parse gives no position; one whose columns do not is an error', async () => {
    const keyHash = await freshKey();
    const store = main.store({ keyHash });
    await shared.query('UPDATE roster_share_state SET audit_position = \'{"at": 5}\' WHERE key_hash = ?', [
      keyHash,
    ]);
    expect(await store.state()).toMatchObject({ auditPosition: null, version: 0 });
    await shared.query("UPDATE roster_share_state SET reader = '' WHERE key_hash = ?", [keyHash]);
    await expect(store.state()).rejects.toMatchObject({ failure: 'unreadable' });
  });
});

describe('another key', () => {
  it('has rows, a version, a lease and a budget of its own, never read under this key', async () => {
    const ours = main.store({ keyHash: await freshKey() });
    const theirs = events.store({ keyHash: await freshKey() });
    expect(await theirs.lease('events', 30_000)).toBe(true);
    expect(
      await theirs.publish('events', {
        members: [member('x', 'theirs', 1)],
        auditPosition: { at: 'theirs' },
      }),
    ).toBe(1);
    await theirs.count(5);
    expect(await ours.membersSince(SHARED_START, 100)).toEqual({
      rows: [],
      unreadable: 0,
      next: SHARED_START,
      done: true,
    });
    expect(await ours.state()).toMatchObject({ version: 0, reader: null, auditPosition: null });
    expect(await ours.lease('main', 30_000)).toBe(true);
    expect(await ours.budget()).toEqual({ minute: 0, day: 0 });
    expect(await ours.writeThrough({ members: [member('x', 'ours', 1)] })).toBe(1);
    expect((await theirs.membersSince(SHARED_START, 100)).rows.map((row) => row.record?.name)).toEqual([
      'theirs',
    ]);
  });
});
