import { describe, expect, it } from 'vitest';
import { AuditCursor } from '../../../src/core/audit/audit-cursor';
import { entryValues } from '../../../src/core/audit/entry-values';

const T0 = Date.UTC(2025, 5, 2, 12);
const at = (ms: number) => new Date(T0 + ms).toISOString();

const entry = (id: string, ms: number) => ({ id, createdAt: at(ms) });

describe('AuditCursor', () => {
  it('starts the overlap before the second newest entry the service holds, in the service time', () => {
    const cursor = new AuditCursor(120_000);
    expect(cursor.anchored).toBe(false);
    cursor.anchor([entry('b', 5_000), entry('a', 0)]);
    expect(cursor.anchored).toBe(true);
    expect(Date.parse(cursor.after()!)).toBe(T0 - 120_001);
    // The anchor's own entries may be a change made while the resource started: processed once.
    expect(cursor.read([entry('a', 0), entry('b', 5_000)])).toHaveLength(2);
    expect(cursor.read([entry('a', 0), entry('b', 5_000)])).toHaveLength(0);
  });

  it('reads a log of fewer than two entries from its beginning', () => {
    const cursor = new AuditCursor(120_000);
    cursor.anchor([entry('a', 0)]);
    expect(cursor.after()).toBeUndefined();
    const empty = new AuditCursor(120_000);
    empty.anchor([]);
    expect(empty.after()).toBeUndefined();
  });

  it('an entry with the same stamp as the last one seen, listed only by a later read, is still processed once', () => {
    const cursor = new AuditCursor(120_000);
    cursor.anchor([]);
    expect(cursor.read([entry('a', 1_000), entry('b', 5_000)])).toHaveLength(2);
    // The next read starts before the latest stamp, so an entry committed late with it is listed.
    expect(Date.parse(cursor.after()!)).toBeLessThan(T0 + 5_000);
    expect(cursor.read([entry('a', 1_000), entry('b', 5_000), entry('c', 5_000)])).toEqual([
      entry('c', 5_000),
    ]);
  });

  it('an entry stamped by a clock a little behind (before the last one seen) is not missed', () => {
    const cursor = new AuditCursor(120_000);
    cursor.anchor([]);
    cursor.read([entry('x', 0), entry('late-clock-2', 30_000)]);
    expect(Date.parse(cursor.after()!)).toBeLessThan(T0 + 20_000);
    expect(cursor.read([entry('late-clock-1', 20_000), entry('late-clock-2', 30_000)])).toHaveLength(1);
  });

  it('entries without an id are told apart by their content', () => {
    const cursor = new AuditCursor(120_000);
    cursor.anchor([]);
    expect(cursor.read([{ what: 'x', createdAt: at(1) }])).toHaveLength(1);
    expect(
      cursor.read([
        { what: 'x', createdAt: at(1) },
        { what: 'y', createdAt: at(1) },
      ]),
    ).toEqual([{ what: 'y', createdAt: at(1) }]);
  });

  it('a stamp far in the future cannot push the cursor past entries still to come', () => {
    const cursor = new AuditCursor(120_000);
    cursor.anchor([{ id: 'future', createdAt: '2999-01-01T00:00:00Z' }, entry('a', 0)]);
    expect(Date.parse(cursor.after()!)).toBeLessThanOrEqual(T0);
    cursor.read([entry('a', 0), { id: 'future', createdAt: '2999-01-01T00:00:00Z' }]);
    expect(Date.parse(cursor.after()!)).toBeLessThanOrEqual(T0);
    const later = cursor.read([
      entry('a', 0),
      entry('b', 60_000),
      { id: 'future', createdAt: '2999-01-01T00:00:00Z' },
    ]);
    expect(later).toEqual([entry('b', 60_000)]);
    expect(Date.parse(cursor.after()!)).toBeLessThanOrEqual(T0 + 60_000);
  });

  it('forgets entries older than the overlap', () => {
    const cursor = new AuditCursor(1_000);
    cursor.anchor([]);
    cursor.read([entry('old', 0), entry('new', 10_000), entry('newer', 20_000)]);
    expect(cursor.size).toBe(2);
  });
});

describe('entryValues', () => {
  it('collects every scalar value at any depth, ignoring keys', () => {
    const values = entryValues({ a: 'x', b: { c: ['y', 3, { d: 'z' }] }, memberId: null });
    expect([...values].sort()).toEqual(['3', 'x', 'y', 'z']);
    expect(values.has('memberId')).toBe(false);
  });

  it('stays bounded on a hostile entry', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    expect(entryValues(deep).has('bottom')).toBe(false);
    const wide = { list: Array.from({ length: 100_000 }, (_, i) => `v${i}`) };
    expect(entryValues(wide).size).toBeLessThan(5_000);
  });
});
