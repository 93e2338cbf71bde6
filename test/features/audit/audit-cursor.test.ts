import { describe, expect, it } from 'vitest';
import { AuditCursor, MAX_CATCH_UP_READS, STAMP_AHEAD_MS } from '../../../src/features/audit/audit-cursor';

const T0 = Date.UTC(2025, 5, 2, 12);
const OVERLAP = 300_000;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(T0 + ms).toISOString();

const entry = (id: string, ms: number) => ({ id, createdAt: at(ms) });
type Entry = ReturnType<typeof entry>;

/** What a service would list after `after`, sorted by stamp, at most `size`. */
function listed(log: readonly Entry[], after: string | undefined, size: number) {
  const from = after === undefined ? Number.NEGATIVE_INFINITY : Date.parse(after);
  return log
    .filter((e) => Date.parse(e.createdAt) > from)
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
    .slice(0, size);
}

/**
 * A cursor on the service's clock (`service.now`, ms after T0), over a log the test writes to;
 * `read()` asks as the feed does: the next read's `after`, then what the service lists.
 */
function rig(size = 2_000) {
  const service = { now: 0 };
  const cursor = new AuditCursor(OVERLAP, () => T0 + service.now);
  const log: Entry[] = [];
  const read = () => {
    const page = listed(log, cursor.nextRead(), size);
    return cursor.read(page, page.length >= size);
  };
  /** The position, ms after T0 (null: the log's beginning). */
  const position = () => (cursor.position === null ? null : cursor.position - T0);
  /** The next read's `after`, ms after T0. */
  const after = () => Date.parse(cursor.after() ?? '1970-01-01') - T0;
  return { service, cursor, log, read, position, after };
}

/** Anchored on an empty log at service time 0. */
function fromStart(size?: number) {
  const r = rig(size);
  r.cursor.anchor([]);
  return r;
}

describe('AuditCursor', () => {
  it('anchors the overlap before the service time, or at the newest entry when it is older; those entries are processed once', () => {
    const r = rig();
    r.service.now = 60_000;
    r.log.push(entry('a', -600_000), entry('b', 30_000), entry('c', 50_000));
    expect(r.cursor.anchored).toBe(false);
    r.cursor.anchor([entry('c', 50_000), entry('b', 30_000)]);
    expect(r.cursor.anchored).toBe(true);
    expect(r.after()).toBe(60_000 - OVERLAP - 1);
    expect(r.position()).toBe(60_000);
    expect(r.read().fresh).toEqual([entry('b', 30_000), entry('c', 50_000)]);
    expect(r.read().fresh).toEqual([]);

    // A log whose newest entry is older than the overlap: read from that entry.
    const quiet = rig();
    quiet.service.now = HOUR;
    quiet.cursor.anchor([entry('c', 50_000), entry('b', 30_000)]);
    expect(quiet.after()).toBe(50_000 - 1);
  });

  it('reads an empty log from its beginning', () => {
    const r = fromStart();
    expect(r.cursor.after()).toBeUndefined();
    expect(r.position()).toBeNull();
    r.service.now = 10_000;
    r.log.push(entry('first', 5_000));
    expect(r.read().fresh).toEqual([entry('first', 5_000)]);
  });

  it('each read starts the overlap before the service time of the last one; entries listed again are processed once', () => {
    const r = fromStart();
    r.log.push(entry('a', 1_000), entry('b', 5_000));
    r.service.now = 6_000;
    expect(r.read().fresh).toHaveLength(2);
    r.log.push(entry('c', 5_000));
    r.service.now = 66_000;
    expect(r.after()).toBeLessThan(5_000);
    expect(r.read().fresh).toEqual([entry('c', 5_000)]);
    r.service.now = 126_000;
    expect(r.read().fresh).toEqual([]);
    expect(r.after()).toBe(126_000 - OVERLAP - 1);
  });

  it('an entry stamped minutes behind the service time, written after a read, is read by the next one, once', () => {
    const r = fromStart();
    r.log.push(entry('a', 0));
    for (let minute = 1; minute <= 20; minute++) {
      r.service.now = minute * 60_000;
      // A node whose clock is four minutes slow writes every other entry.
      const behind = minute % 2 === 0 ? 4 * 60_000 : 0;
      const written = entry(`m${minute}`, r.service.now - behind);
      r.log.push(written);
      r.service.now += 30_000;
      expect(r.read().fresh).toContainEqual(written);
      expect(r.read().fresh).toEqual([]);
    }
  });

  it('entries without an id are told apart by their content', () => {
    const r = fromStart();
    r.service.now = 1_000;
    const x = { what: 'x', createdAt: at(1) };
    const y = { what: 'y', createdAt: at(1) };
    expect(r.cursor.read([x], false).fresh).toHaveLength(1);
    expect(r.cursor.read([x, y], false).fresh).toEqual([y]);
  });

  it('two entries stamped an hour ahead move nothing: reported once, acted on, and a suspension written later is read by the next read', () => {
    const r = fromStart();
    r.log.push(entry('old', 0));
    r.service.now = 60_000;
    r.read();
    const base = r.position()!;
    r.log.push(entry('fast-1', 61_000 + HOUR), entry('fast-2', 62_000 + HOUR));
    r.service.now = 120_000;
    const step = r.read();
    expect(step.fresh.map((e) => (e as Entry).id)).toEqual(['fast-1', 'fast-2']);
    expect(step.ahead.map((a) => [(a.entry as Entry).id, Math.round(a.aheadMs / 60_000)])).toEqual([
      ['fast-1', 59],
      ['fast-2', 59],
    ]);
    for (let minute = 3; minute < 60; minute++) {
      r.service.now = minute * 60_000;
      const suspension = entry(`suspend-${minute}`, r.service.now - 1_000);
      r.log.push(suspension);
      const next = r.read();
      expect(next.fresh).toEqual([suspension]);
      expect(next.ahead).toEqual([]);
      // Never ahead of the service time, and it still moves with it.
      expect(r.position()!).toBeLessThanOrEqual(r.service.now);
      expect(r.after()).toBeLessThanOrEqual(r.service.now - OVERLAP);
    }
    expect(r.position()!).toBeGreaterThan(base);
  });

  it('a stamp a little ahead (within the tolerance) is believed but the position stays on the service time', () => {
    const r = fromStart();
    r.service.now = 60_000;
    r.log.push(entry('fast', 60_000 + STAMP_AHEAD_MS - 1_000));
    const step = r.read();
    expect(step.fresh).toHaveLength(1);
    expect(step.ahead).toEqual([]);
    r.service.now = 120_000;
    r.read();
    expect(r.position()!).toBeLessThanOrEqual(120_000);
    const later = entry('later', 119_000);
    r.log.push(later);
    r.service.now = 180_000;
    expect(r.read().fresh).toEqual([later]);
  });

  it('whatever stamps arrive, the position is never ahead of the service time and every sane entry is read at the next read, once', () => {
    // Stamps from minutes behind to an hour ahead, in a fixed pseudo-random order.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const r = fromStart(200);
    const processed = new Map<string, number>();
    for (let n = 0; n < 400; n++) {
      r.service.now += 10_000 + Math.floor(random() * 50_000);
      const written: Entry[] = [];
      for (let k = Math.floor(random() * 4); k > 0; k--) {
        const skew = random() < 0.1 ? HOUR * (1 + random()) : -Math.floor(random() * 4 * 60_000);
        written.push(entry(`e${n}-${k}`, r.service.now + skew));
      }
      r.log.push(...written);
      r.service.now += 1_000;
      const step = r.read();
      for (const e of step.fresh) {
        const id = (e as Entry).id;
        processed.set(id, (processed.get(id) ?? 0) + 1);
      }
      for (const e of written) expect(processed.get(e.id)).toBe(1);
      expect(step.gap).toBeNull();
      expect(r.position()!).toBeLessThanOrEqual(r.service.now);
    }
    expect([...processed.values()].every((count) => count === 1)).toBe(true);
  });

  it('a burst larger than a read is read on from where each read stopped, and is no longer listed once the overlap passed it', () => {
    const r = fromStart();
    r.log.push(...Array.from({ length: 2_500 }, (_, i) => entry(`burst-${i}`, 1_000 + i)));
    let processed = 0;
    const reads: string[] = [];
    for (let t = 5_000; t <= 900_000; t += 60_000) {
      r.service.now = t;
      reads.push(r.cursor.after() ?? '');
      const step = r.read();
      processed += step.fresh.length;
      expect(step.gap).toBeNull();
    }
    expect(processed).toBe(2_500);
    // The second read went on after the first one's last entry, not from the same place again.
    expect(Date.parse(reads[1]!)).toBe(T0 + 1_000 + 1_999 - 1);
    expect(listed(r.log, r.cursor.after(), 2_000).length).toBeLessThanOrEqual(1);
  });

  it('a full read of entries all stamped alike cannot be paged past: a gap said once, and the reads go on after them', () => {
    const r = fromStart(20);
    r.log.push(...Array.from({ length: 30 }, (_, i) => entry(`same-${i}`, 1_000)));
    r.log.push(entry('after', 2_000));
    r.service.now = 3_000;
    expect(r.read().gap).toBeNull();
    expect(r.read().gap).toMatch(/more than 20 entries stamped/);
    expect(r.read().fresh).toEqual([entry('after', 2_000)]);
    for (let t = 60_000; t < 900_000; t += 60_000) {
      r.service.now = t;
      expect(r.read().gap).toBeNull();
    }
    expect(r.after()).toBeGreaterThanOrEqual(2_000 - 1);
  });

  it('a full read that ends among entries stamped far ahead reached the end of what can be believed: a gap said once, sane entries still read', () => {
    const r = fromStart(20);
    r.log.push(...Array.from({ length: 30 }, (_, i) => entry(`future-${i}`, HOUR + i)));
    r.service.now = 1_000;
    const first = r.read();
    expect(first).toMatchObject({ behind: false });
    expect(first.gap).toMatch(/stamped more than 5 minutes ahead of the service's time/);
    for (let minute = 1; minute < 10; minute++) {
      r.service.now = minute * 60_000;
      const sane = entry(`sane-${minute}`, r.service.now - 500);
      r.log.push(sane);
      const step = r.read();
      expect(step.fresh).toEqual([sane]);
      expect(step.gap).toBeNull();
      expect(r.cursor.behind).toBe(false);
    }
  });

  it('a backlog longer than the catch-up limit is a gap: the cursor anchors anew', () => {
    const size = 10;
    const r = fromStart(size);
    r.log.push(
      ...Array.from({ length: size * (MAX_CATCH_UP_READS + 5) }, (_, i) => entry(`b-${i}`, 1_000 + i)),
    );
    const gaps: string[] = [];
    for (let n = 0; n <= MAX_CATCH_UP_READS; n++) {
      r.service.now = 2_000 + n * 60_000;
      const step = r.read();
      if (step.gap) gaps.push(step.gap);
    }
    expect(gaps).toEqual([`more than ${MAX_CATCH_UP_READS * size} entries behind`]);
    expect(r.cursor.anchored).toBe(false);
  });

  it('forgets entries no read lists again', () => {
    const r = fromStart();
    r.service.now = 30_000;
    r.log.push(entry('old', 0), entry('new', 10_000), entry('newer', 20_000));
    r.read();
    expect(r.cursor.size).toBe(3);
    r.service.now = 30_000 + OVERLAP + 15_000;
    r.read();
    expect(r.cursor.size).toBe(1);
  });
});

describe('AuditCursor position', () => {
  it('follows the service time of the reads that reached the end of the log, whatever the stamps', () => {
    const r = fromStart(10);
    r.log.push(entry('a', 1_000));
    r.service.now = 2_000;
    r.read();
    expect(r.position()).toBe(2_000);
    // Behind a burst, the position waits for the read that reaches the end.
    r.log.push(...Array.from({ length: 15 }, (_, i) => entry(`b-${i}`, 3_000 + i)));
    r.service.now = 62_000;
    expect(r.read().behind).toBe(true);
    expect(r.position()).toBe(2_000);
    r.service.now = 122_000;
    expect(r.read().behind).toBe(false);
    expect(r.position()).toBe(62_000);
  });

  it('resumes from a saved position the overlap before it', () => {
    const r = rig();
    r.service.now = 100_000;
    r.cursor.resume(T0 + 50_000);
    expect(r.cursor.anchored).toBe(true);
    expect(r.after()).toBe(50_000 - OVERLAP - 1);
    expect(r.position()).toBe(50_000);
    r.log.push(entry('late', 40_000), entry('new', 60_000));
    expect(r.read().fresh).toEqual([entry('late', 40_000), entry('new', 60_000)]);
  });

  it('resumes from the log beginning when the position saved was none', () => {
    const r = rig();
    r.cursor.resume(null);
    expect(r.cursor.anchored).toBe(true);
    expect(r.cursor.after()).toBeUndefined();
  });

  it('a saved position ahead of the service time is not trusted: the next read says so as a gap, and reads from the service time', () => {
    const r = rig();
    r.service.now = 100_000;
    r.cursor.resume(T0 + 100_000 + HOUR);
    expect(r.position()!).toBeLessThanOrEqual(100_000);
    expect(r.after()).toBe(100_000 - OVERLAP - 1);
    const step = r.read();
    expect(step.gap).toMatch(/position saved before the restart, .* is ahead of the service's time/);
    expect(r.read().gap).toBeNull();
  });
});
