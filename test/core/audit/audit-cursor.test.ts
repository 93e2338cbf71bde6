import { describe, expect, it } from 'vitest';
import { AuditCursor, MAX_CATCH_UP_READS } from '../../../src/core/audit/audit-cursor';

const T0 = Date.UTC(2025, 5, 2, 12);
const at = (ms: number) => new Date(T0 + ms).toISOString();

const entry = (id: string, ms: number) => ({ id, createdAt: at(ms) });

/** A cursor anchored on an empty log; `take` reads entries at this server's time `t` (ms). */
function fromStart(overlapMs = 120_000) {
  const cursor = new AuditCursor(overlapMs);
  cursor.anchor([], 0);
  const take = (entries: unknown[], t = 0, full = false) => cursor.read(entries, full, t).fresh;
  return { cursor, take };
}

/** What a service would list after the cursor, sorted, at most `size`. */
function listed(log: { createdAt: string }[], after: string | undefined, size: number) {
  const from = after === undefined ? Number.NEGATIVE_INFINITY : Date.parse(after);
  return log.filter((e) => Date.parse(e.createdAt) > from).slice(0, size);
}

describe('AuditCursor', () => {
  it('starts the overlap before the second newest entry the service holds, in the service time', () => {
    const cursor = new AuditCursor(120_000);
    expect(cursor.anchored).toBe(false);
    cursor.anchor([entry('b', 5_000), entry('a', 0)], 0);
    expect(cursor.anchored).toBe(true);
    expect(Date.parse(cursor.after()!)).toBe(T0 - 120_001);
    // The anchor's own entries may be a change made while the resource started: processed once.
    expect(cursor.read([entry('a', 0), entry('b', 5_000)], false, 0).fresh).toHaveLength(2);
    expect(cursor.read([entry('a', 0), entry('b', 5_000)], false, 0).fresh).toHaveLength(0);
  });

  it('reads a log of fewer than two entries from its beginning', () => {
    const cursor = new AuditCursor(120_000);
    cursor.anchor([entry('a', 0)], 0);
    expect(cursor.after()).toBeUndefined();
    const empty = new AuditCursor(120_000);
    empty.anchor([], 0);
    expect(empty.after()).toBeUndefined();
  });

  it('an entry with the same stamp as the last one seen, listed only by a later read, is still processed once', () => {
    const { cursor, take } = fromStart();
    expect(take([entry('a', 1_000), entry('b', 5_000)])).toHaveLength(2);
    // The next read starts before the latest stamp, so an entry committed late with it is listed.
    expect(Date.parse(cursor.after() ?? '1970-01-01')).toBeLessThan(T0 + 5_000);
    expect(take([entry('a', 1_000), entry('b', 5_000), entry('c', 5_000)])).toEqual([entry('c', 5_000)]);
  });

  it('an entry committed late with an earlier stamp is listed while it can still appear, and the floor then moves on', () => {
    const { cursor, take } = fromStart();
    take([entry('a', 0), entry('b', 30_000)], 0);
    // Within the overlap (this server's time) the next reads still start at or before 'a'.
    take([entry('a', 0), entry('b', 30_000), entry('c', 40_000)], 60_000);
    expect(
      take([entry('a', 0), entry('late', 20_000), entry('b', 30_000), entry('c', 40_000)], 90_000),
    ).toEqual([entry('late', 20_000)]);
    // Long after, the floor is past them: they are no longer listed, nor remembered.
    take([entry('b', 30_000), entry('c', 40_000)], 300_000);
    take([entry('c', 40_000)], 360_000);
    expect(Date.parse(cursor.after()!)).toBeGreaterThanOrEqual(T0 + 30_000 - 1);
    expect(cursor.size).toBeLessThanOrEqual(2);
  });

  it('entries without an id are told apart by their content', () => {
    const { take } = fromStart();
    expect(take([{ what: 'x', createdAt: at(1) }])).toHaveLength(1);
    expect(
      take([
        { what: 'x', createdAt: at(1) },
        { what: 'y', createdAt: at(1) },
      ]),
    ).toEqual([{ what: 'y', createdAt: at(1) }]);
  });

  it('a stamp far in the future cannot push the cursor past entries still to come', () => {
    const future = { id: 'future', createdAt: '2999-01-01T00:00:00Z' };
    const cursor = new AuditCursor(120_000);
    cursor.anchor([future, entry('a', 0)], 0);
    expect(Date.parse(cursor.after()!)).toBeLessThanOrEqual(T0);
    cursor.read([entry('a', 0), future], false, 0);
    cursor.read([entry('a', 0), future], false, 600_000);
    expect(Date.parse(cursor.after()!)).toBeLessThanOrEqual(T0);
    const later = cursor.read([entry('a', 0), entry('b', 60_000), future], false, 700_000);
    expect(later.fresh).toEqual([entry('b', 60_000)]);
    cursor.read([entry('b', 60_000), future], false, 1_000_000);
    expect(Date.parse(cursor.after()!)).toBeLessThanOrEqual(T0 + 60_000);
  });

  it('a burst larger than a read is read on from where each read stopped, and is not listed again for ever', () => {
    const { cursor } = fromStart();
    const log = Array.from({ length: 2_500 }, (_, i) => entry(`burst-${i}`, 1_000 + i));
    let processed = 0;
    const reads: string[] = [];
    for (let t = 0; t <= 600_000; t += 60_000) {
      const after = cursor.after();
      reads.push(after ?? '');
      const page = listed(log, after, 2_000);
      const step = cursor.read(page, page.length >= 2_000, t);
      processed += step.fresh.length;
      expect(step.gap).toBeNull();
    }
    expect(processed).toBe(2_500);
    // The second read went on after the first one's last entry, not from the same place again.
    expect(Date.parse(reads[1]!)).toBe(T0 + 1_000 + 1_999 - 1);
    // Once late entries can no longer appear, reads no longer list the burst.
    expect(listed(log, cursor.after(), 2_000).length).toBeLessThanOrEqual(2);
  });

  it('a full read of entries all stamped alike cannot be paged past: it is a gap, and the cursor steps over it', () => {
    const { cursor } = fromStart();
    const log = Array.from({ length: 30 }, (_, i) => entry(`same-${i}`, 1_000));
    log.push(entry('after', 2_000));
    let step = cursor.read(listed(log, cursor.after(), 20), true, 0);
    expect(step.gap).toBeNull();
    step = cursor.read(listed(log, cursor.after(), 20), true, 60_000);
    expect(step.gap).toMatch(/more than 20 entries stamped/);
    expect(cursor.read(listed(log, cursor.after(), 20), false, 120_000).fresh).toEqual([
      entry('after', 2_000),
    ]);
    // Stepped over for good: later reads do not page into them again.
    for (let t = 180_000; t < 600_000; t += 60_000) {
      const page = listed(log, cursor.after(), 20);
      expect(cursor.read(page, page.length >= 20, t).gap).toBeNull();
    }
  });

  it('a backlog longer than the catch-up limit is a gap: the cursor anchors anew on the newest entries', () => {
    const { cursor } = fromStart();
    const size = 10;
    const log = Array.from({ length: size * (MAX_CATCH_UP_READS + 5) }, (_, i) => entry(`b-${i}`, 1_000 + i));
    const gaps: string[] = [];
    for (let n = 0; n <= MAX_CATCH_UP_READS; n++) {
      const step = cursor.read(listed(log, cursor.after(), size), true, n * 60_000);
      if (step.gap) gaps.push(step.gap);
    }
    expect(gaps).toEqual([`more than ${MAX_CATCH_UP_READS * size} entries behind`]);
    expect(cursor.anchored).toBe(false);
  });

  it('forgets entries no read lists again', () => {
    const { cursor, take } = fromStart(1_000);
    take([entry('old', 0), entry('new', 10_000), entry('newer', 20_000)], 0);
    take([entry('new', 10_000), entry('newer', 20_000)], 5_000);
    expect(cursor.size).toBe(2);
  });
});
