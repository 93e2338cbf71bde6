import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SHARED_START, type ShareSchemas, ShareStoreError } from '../../../src/features/share/share-store';
import { MemoryShareStore, MemoryShareTables } from '../../../src/features/share/store-memory';
import { FakeClock } from '../../http/limiter/fake-clock';

const schemas: ShareSchemas<{ name: string }, { at: string }> = {
  record: z.object({ name: z.string() }),
  auditPosition: z.object({ at: z.string() }),
};

const KEY = 'a'.repeat(64);
const OTHER_KEY = 'b'.repeat(64);

let clock: FakeClock;
let tables: MemoryShareTables;
let store: MemoryShareStore<{ name: string }, { at: string }>;

const member = (memberId: string, name: string, readAt: number) => ({
  memberId,
  license: `license:${memberId}`,
  record: { name },
  readAt,
});

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2025, 0, 1, 12, 0, 30));
  tables = new MemoryShareTables(clock);
  store = new MemoryShareStore(tables, KEY, schemas);
  await store.migrate();
});

describe('the lease', () => {
  it('goes to one server; the holder renews it; another takes it only once it ran out', async () => {
    expect(await store.lease('main', 30_000)).toBe(true);
    expect(await store.lease('events', 30_000)).toBe(false);
    await clock.advance(20_000);
    expect(await store.lease('main', 30_000)).toBe(true);
    await clock.advance(20_000);
    expect(await store.lease('events', 30_000)).toBe(false);
    await clock.advance(10_000);
    expect(await store.lease('events', 30_000)).toBe(true);
    expect((await store.state())?.reader).toBe('events');
    expect(await store.lease('main', 30_000)).toBe(false);
  });

  it('released, is free at once', async () => {
    await store.lease('main', 30_000);
    await store.release('events');
    expect(await store.lease('events', 30_000)).toBe(false);
    await store.release('main');
    expect(await store.lease('events', 30_000)).toBe(true);
  });
});

describe('writes', () => {
  it('publish moves the state with the members under one new version; refused without the lease', async () => {
    expect(await store.publish('main', { members: [member('m1', 'Ann', 1)] })).toBeNull();
    await store.lease('main', 30_000);
    const version = await store.publish('main', {
      members: [member('m1', 'Ann', 1)],
      auditPosition: { at: 'x' },
      fullReadAt: 5,
      complete: true,
      community: 'c',
    });
    expect(version).toBe(1);
    expect(await store.state()).toMatchObject({
      version: 1,
      auditPosition: { at: 'x' },
      fullReadAt: 5,
      complete: true,
    });
    await clock.advance(30_000);
    expect(await store.publish('main', { members: [member('m2', 'Bo', 2)] })).toBeNull();
    const page = await store.membersSince(SHARED_START, 10);
    expect(page.rows.map((r) => r.memberId)).toEqual(['m1']);
  });

  it('keeps the newer read of a member, and an older write changes nothing', async () => {
    await store.writeThrough({ members: [member('m1', 'new', 200)] });
    const v2 = await store.writeThrough({ members: [member('m1', 'old', 100)] });
    expect(v2).toBe(2);
    const page = await store.membersSince(SHARED_START, 10);
    expect(page.rows).toEqual([
      { memberId: 'm1', license: 'license:m1', record: { name: 'new' }, readAt: 200, version: 1 },
    ]);
    await store.writeThrough({ removed: [{ memberId: 'm1', readAt: 300 }] });
    const removed = await store.membersSince({ version: 1, memberId: 'm1' }, 10);
    expect(removed.rows).toEqual([
      { memberId: 'm1', license: 'license:m1', record: null, readAt: 300, version: 3 },
    ]);
  });
});

describe('membersSince', () => {
  it('pages through one version by member id, then the later ones, missing nothing', async () => {
    await store.writeThrough({ members: ['c', 'a', 'b', 'd'].map((id) => member(id, id, 1)) });
    await store.writeThrough({ members: [member('a', 'a2', 2)] });
    const first = await store.membersSince(SHARED_START, 2);
    expect(first.rows.map((r) => [r.version, r.memberId])).toEqual([
      [1, 'b'],
      [1, 'c'],
    ]);
    expect(first.done).toBe(false);
    const second = await store.membersSince(first.next, 2);
    expect(second.rows.map((r) => [r.version, r.memberId])).toEqual([
      [1, 'd'],
      [2, 'a'],
    ]);
    const third = await store.membersSince(second.next, 2);
    expect(third).toEqual({ rows: [], unreadable: 0, next: second.next, done: true });
  });

  it('skips and counts rows that do not parse, and moves past them', async () => {
    const row = { key_hash: KEY, license: 'license:x', read_at: 1, version: 1 };
    tables.plantMember({ ...row, member_id: 'a', record: '{not json' });
    tables.plantMember({ ...row, member_id: 'b', record: '{"name": 5}' });
    tables.plantMember({ ...row, member_id: 'c', record: '{"name": "ok"}' });
    tables.plantMember({ ...row, member_id: 'd', license: null, record: '{"name": "no license"}' });
    const page = await store.membersSince(SHARED_START, 10);
    expect(page.rows.map((r) => r.memberId)).toEqual(['c']);
    expect(page.unreadable).toBe(3);
    expect(page.next).toEqual({ version: 1, memberId: 'd' });
  });

  it('never reads the rows of another key', async () => {
    const other = new MemoryShareStore(tables, OTHER_KEY, schemas);
    await other.writeThrough({ members: [member('x', 'other', 1)] });
    expect((await store.membersSince(SHARED_START, 10)).rows).toEqual([]);
    expect(await store.state()).toMatchObject({ version: 0 });
  });
});

describe('the budget', () => {
  it('adds every store’s requests in the current minute and day, and starts a new minute at zero', async () => {
    const other = new MemoryShareStore(tables, KEY, schemas);
    expect(await store.count(2)).toEqual({ minute: 2, day: 2 });
    expect(await other.count(3)).toEqual({ minute: 5, day: 5 });
    await clock.advance(30_000);
    expect(await store.budget()).toEqual({ minute: 0, day: 5 });
    expect(await store.count(1)).toEqual({ minute: 1, day: 6 });
  });
});

describe('failures', () => {
  it('rejects with a typed error while the tables fail, and before they exist', async () => {
    tables.failing = 'timeout';
    await expect(store.state()).rejects.toMatchObject({ failure: 'timeout' });
    const fresh = new MemoryShareStore(new MemoryShareTables(clock), KEY, schemas);
    await expect(fresh.lease('main', 1)).rejects.toBeInstanceOf(ShareStoreError);
  });
});

describe('shared facts', () => {
  it('are read back with their age on the tables’ clock, per key, and replaced by a newer read', async () => {
    expect(await store.fact('identity')).toBeNull();
    await store.putFact('identity', { scopes: ['a'] });
    await clock.advance(5_000);
    expect(await store.fact('identity')).toEqual({ value: { scopes: ['a'] }, ageMs: 5_000 });
    const other = new MemoryShareStore(tables, OTHER_KEY, schemas);
    expect(await other.fact('identity')).toBeNull();
    await store.putFact('identity', { scopes: [] });
    expect(await store.fact('identity')).toEqual({ value: { scopes: [] }, ageMs: 0 });
  });
});
