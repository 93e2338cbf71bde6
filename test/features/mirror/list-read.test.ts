import { describe, expect, it } from 'vitest';
import { type ListToRead, readList } from '../../../src/features/mirror/list-read';
import { ListReadError } from '../../../src/features/mirror/list-read-error';
import { outcome } from '../../roster/client/fake-roster';
import { FakeList, fakeLists, type ListedRecord, stamp } from './fake-list';

const PATH = '/api/v1/things';

/** `count` records stamped one second apart from `fromMs`, ids `<prefix>-<n>`. */
function records(count: number, prefix = 'r', fromMs = 0, stepMs = 1000): ListedRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    createdAt: stamp(fromMs + i * stepMs),
  }));
}

/** Reads the list whole on the fake clock; the ids read, or the error. */
async function read(list: FakeList, options: Partial<ListToRead> = {}) {
  const { clock, source, pacer } = fakeLists({ [PATH]: list });
  const result = await outcome(
    clock,
    readList(source, pacer, { path: PATH, query: {}, maxPages: 20, ...options }),
  );
  if (result.error !== undefined) return { error: result.error, ids: [] as string[] };
  const value = result.value!;
  const ids = value.kind === 'read' ? value.records.map((r) => (r as ListedRecord).id) : [];
  return { value, ids, error: undefined };
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('a list read by key', () => {
  it('asks each next page after the newest stamp read minus 1 ms, reading every record once', async () => {
    const list = new FakeList();
    list.records = records(250);
    const { ids } = await read(list);
    expect(ids).toEqual(list.ids());
    const after = list.asked.map((q) => q['createdAt.after']);
    expect(after[0]).toBeUndefined();
    // The first page ends with r-99, stamped 99 s in: the second is asked from 1 ms before it.
    expect(after[1]).toBe(new Date(Date.parse(stamp(99_000)) - 1).toISOString());
    expect(list.asked.every((q) => q.sort === 'createdAt' || q.sort === '-createdAt')).toBe(true);
    expect(list.asked.every((q) => q.limit === 100)).toBe(true);
  });

  for (const [where, before, after] of [
    ['at the start', 0, 120],
    ['in the middle', 30, 120],
    ['at the end', 30, 0],
  ] as const) {
    it(`a stamp shared by more than 100 records ${where} is read whole, once each, and the read goes past it`, async () => {
      const list = new FakeList();
      const shared = Array.from({ length: 250 }, (_, i) => ({ id: `same-${i}`, createdAt: stamp(500_000) }));
      list.records = [...records(before, 'early'), ...shared, ...records(after, 'late', 600_000)];
      const { ids, error } = await read(list);
      expect(error).toBeUndefined();
      expect(ids).toHaveLength(list.records.length);
      expect(sorted(ids)).toEqual(sorted(list.ids()));
      // It does not go round: no request is asked twice, and a handful do.
      const asked = list.asked.map((q) => JSON.stringify(q));
      expect(new Set(asked).size).toBe(asked.length);
      expect(asked.length).toBeLessThanOrEqual(9);
    });
  }

  it('a list that shrinks and grows while it is read holds exactly the records it has at the end', async () => {
    const list = new FakeList();
    list.records = records(450);
    list.beforeAnswer = (_query, n) => {
      if (n !== 3) return;
      // Two pages read: five records on them are deleted, three created now, and one created
      // with a stamp the read has already passed.
      list.records = list.records.filter((r) => !['r-3', 'r-40', 'r-77', 'r-150', 'r-160'].includes(r.id));
      list.records.push(...records(3, 'new', 900_000));
      list.records.push({ id: 'backdated', createdAt: stamp(10_500) });
    };
    const { ids, error } = await read(list);
    expect(error).toBeUndefined();
    expect(sorted(ids)).toEqual(sorted(list.ids()));
    expect(ids).toHaveLength(449);
  });

  it('a department transfer (one deleted on a page read, one created) leaves no record unread and none deleted', async () => {
    const list = new FakeList();
    list.records = records(360);
    list.beforeAnswer = (_query, n) => {
      if (n !== 2) return;
      list.records = list.records.filter((r) => r.id !== 'r-10');
      list.records.push({ id: 'moved', createdAt: stamp(1_000_000) });
    };
    const { ids } = await read(list);
    expect(sorted(ids)).toEqual(sorted(list.ids()));
    expect(ids).toContain('r-100');
    expect(ids).not.toContain('r-10');
  });

  it('a list whose early records keep being deleted faster than it is reconciled is still read, nothing missing', async () => {
    const list = new FakeList();
    list.records = records(450);
    let next = 0;
    // From the second page on, every answer comes after one more early record was deleted: what is
    // held past the count are those deletions, which the audit log names. The read stands.
    list.beforeAnswer = (_query, n) => {
      if (n >= 2) list.records.splice(next++ * 7, 1);
    };
    const { ids, error } = await read(list);
    expect(error).toBeUndefined();
    for (const id of list.ids()) expect(ids).toContain(id);
  });

  it('a list that keeps gaining records stamped in the part already read fails the read, never stored short', async () => {
    const list = new FakeList();
    list.records = records(450);
    let next = 0;
    // From the second page on, every answer comes after one more record was created with an early
    // stamp: the part read keeps coming up short of the count.
    list.beforeAnswer = (_query, n) => {
      if (n >= 2) list.records.push({ id: `late-${next}`, createdAt: stamp(1_000 * (next++ % 90) + 500) });
    };
    const { error } = await read(list);
    expect(error).toBeInstanceOf(ListReadError);
    expect(String(error)).toMatch(/kept changing while it was read/);
  });

  it('a service that does not count is read by key, with no request spent on a count', async () => {
    const list = new FakeList();
    list.records = records(250);
    list.counts = false;
    const { ids } = await read(list);
    expect(ids).toEqual(list.ids());
    expect(list.asked.every((q) => q.limit === 100 && q.sort === 'createdAt')).toBe(true);
  });

  it('a service that ignores createdAt.after fails the read instead of reading forever', async () => {
    const list = new FakeList();
    list.records = records(250);
    const answer = list.answer.bind(list);
    list.answer = (query) =>
      answer({ ...query, 'createdAt.after': undefined, 'createdAt.before': undefined });
    const { error } = await read(list);
    expect(String(error)).toMatch(/paging may be broken/);
    expect(list.asked.length).toBeLessThan(20);
  });

  it('stops as soon as the list is known to hold more than it may', async () => {
    const list = new FakeList();
    list.records = records(450);
    const { value } = await read(list, { atMost: 300 });
    expect(value).toEqual({ kind: 'too-many', size: 450 });
    expect(list.asked).toHaveLength(1);
  });
});

describe('a list whose records cannot be read by key', () => {
  it('records without a readable createdAt: read by page numbers, twice, and taken when both reads agree', async () => {
    const list = new FakeList();
    list.records = records(250);
    for (const i of [5, 120, 249])
      list.records[i] = { id: `unstamped-${i}`, createdAt: i === 5 ? 'soon' : null };
    const { ids } = await read(list);
    expect(sorted(ids)).toEqual(sorted(list.ids()));
    const numbered = list.asked.filter((q) => q['createdAt.after'] === undefined && q.sort === 'createdAt');
    expect(numbered.map((q) => q.page)).toEqual([1, 1, 2, 3, 1, 2, 3]);
  });

  it('a change during a read by page numbers is not taken: it is read again until two reads agree', async () => {
    const list = new FakeList();
    // One record without a stamp: listed last, and left out of every range.
    list.records = records(250).map((r, i) => (i === 200 ? { id: r.id } : r));
    let changed = false;
    list.beforeAnswer = (query) => {
      // Before the second page of the first read by numbers: a record of its first page is
      // deleted, which moves r-100 onto the page already read.
      if (query.page !== 2 || changed) return;
      changed = true;
      list.records = list.records.filter((r) => r.id !== 'r-10');
    };
    const { ids } = await read(list);
    expect(sorted(ids)).toEqual(sorted(list.ids()));
    expect(ids).toContain('r-100');
    // The first read missed r-100; the second did not; the third agreed with it.
    const numbered = list.asked.filter((q) => q['createdAt.after'] === undefined && q.sort === 'createdAt');
    expect(numbered.map((q) => q.page)).toEqual([1, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
  });

  it('a small list answered whole in one page needs neither key nor a second read', async () => {
    const list = new FakeList();
    list.records = [{ id: 'a' }, { id: 'b', createdAt: stamp(5) }];
    const { ids } = await read(list);
    expect(sorted(ids)).toEqual(['a', 'b']);
    expect(list.asked).toHaveLength(1);
  });
});
