import { describe, expect, it } from 'vitest';
import { AuditCursor } from '../../../src/core/audit/audit-cursor';
import { entryValues } from '../../../src/core/audit/entry-values';

const T0 = Date.UTC(2025, 5, 2, 12);
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('AuditCursor', () => {
  it('starts before the resource started, by the overlap', () => {
    const cursor = new AuditCursor(T0, 120_000, () => T0);
    expect(cursor.after()).toBe(at(-120_000));
  });

  it('an entry with the same stamp as the last one seen, listed only by a later read, is still processed once', () => {
    const cursor = new AuditCursor(T0, 120_000, () => T0 + 60_000);
    expect(cursor.accept({ id: 'a', createdAt: at(5_000) })).toBe(true);
    // The next read starts before the latest stamp, so an entry committed late with it is listed.
    expect(Date.parse(cursor.after())).toBeLessThan(T0 + 5_000);
    expect(cursor.accept({ id: 'a', createdAt: at(5_000) })).toBe(false);
    expect(cursor.accept({ id: 'b', createdAt: at(5_000) })).toBe(true);
    expect(cursor.accept({ id: 'b', createdAt: at(5_000) })).toBe(false);
  });

  it('an entry stamped by a clock a little behind (before the last one seen) is not missed', () => {
    const cursor = new AuditCursor(T0, 120_000, () => T0 + 60_000);
    cursor.accept({ id: 'late-clock-2', createdAt: at(30_000) });
    expect(Date.parse(cursor.after())).toBeLessThan(T0 + 20_000);
    expect(cursor.accept({ id: 'late-clock-1', createdAt: at(20_000) })).toBe(true);
  });

  it('entries without an id are told apart by their content', () => {
    const cursor = new AuditCursor(T0, 120_000, () => T0);
    expect(cursor.accept({ what: 'x', createdAt: at(1) })).toBe(true);
    expect(cursor.accept({ what: 'x', createdAt: at(1) })).toBe(false);
    expect(cursor.accept({ what: 'y', createdAt: at(1) })).toBe(true);
  });

  it('a stamp far in the future cannot push the cursor past entries still to come', () => {
    const cursor = new AuditCursor(T0, 120_000, () => T0);
    cursor.accept({ id: 'future', createdAt: '2999-01-01T00:00:00Z' });
    expect(Date.parse(cursor.after())).toBeLessThanOrEqual(T0);
  });

  it('forgets entries older than the overlap', () => {
    let now = T0;
    const cursor = new AuditCursor(T0, 1_000, () => now);
    cursor.accept({ id: 'old', createdAt: at(0) });
    now = T0 + 10_000;
    cursor.accept({ id: 'new', createdAt: at(10_000) });
    cursor.prune();
    expect(cursor.size).toBe(1);
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
