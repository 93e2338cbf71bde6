import { createdAtOf, distinctStamps, entryKey } from './entry-identity';

/** Most entry keys remembered; the oldest go first beyond it. */
const MAX_SEEN = 25_000;

/**
 * Reads in a row that each stopped at their size before the feed gives up paging through a
 * backlog: 20,000 entries (200 requests), about what reading every member again costs.
 */
export const MAX_CATCH_UP_READS = 10;

/**
 * How far ahead of the service's own time a stamp may be and still be believed (a node of the
 * service whose clock runs a little fast). A stamp further ahead is acted on but never moves
 * where the log is read from.
 */
export const STAMP_AHEAD_MS = 5 * 60_000;

/** The `Date` header's resolution: a saved position this far past the service's time is not ahead. */
const DATE_RESOLUTION_MS = 1_000;

/** A fresh entry stamped more than `STAMP_AHEAD_MS` ahead of the service's time when it was read. */
export interface AheadEntry {
  entry: unknown;
  aheadMs: number;
}

/** What one read of the log means for the cursor. */
export interface CursorStep {
  /** Entries not processed before, oldest first. */
  fresh: unknown[];
  /** The read stopped at its size: the next one goes on after its last entry. */
  behind: boolean;
  /** Entries that will never be read, and why; null when none. */
  gap: string | null;
  /** The fresh entries stamped too far ahead of the service's time to be believed. */
  ahead: AheadEntry[];
}

/**
 * Where the next read of the audit log starts, and which entries were already processed, on the
 * service's clock: its `Date` header (`serviceTime`), to which its stamps (`createdAt`) are
 * compared; this server's clock, which may be minutes off, plays no part.
 *
 * A sweep reads from the overlap before the service's time at which the last sweep began (never
 * after the newest believable stamp listed): an entry written late, or by a node whose clock is
 * minutes slow, is still listed, and entries read again are recognised by key. A read that stops
 * at its size (a burst) is followed by one that goes on after its last entry. A stamp far ahead of
 * the service's time moves nothing: the position follows the service's clock, not the stamps, so
 * it is never a future one.
 */
export class AuditCursor {
  /** The earliest stamp a sweep lists (ms, service time); null: from the log's beginning. Never moves back. */
  private floor: number | null = null;
  /** The service's time when the last sweep that read to the end of the log began. */
  private sweptAt: number | null = null;
  /** The service's time when the current sweep began. */
  private sweepStart = 0;
  /** The newest believable stamp listed (ms, service time). */
  private newest: number | null = null;
  /** Set while behind: the stamp the next read starts at (its entries again, then further). */
  private resumeAt: number | null = null;
  private isAnchored = false;
  /** How far below the service's time an anchor starts: none after a gap, which is read again anyway. */
  private anchorOverlapMs: number;
  private readsBehind = 0;
  /** A gap found outside a read (a saved position ahead of the service's time): told by the next read. */
  private pendingGap: string | null = null;
  /** The stamp of a block of entries too large to page through, stepped over (said once). */
  private steppedOver: number | null = null;
  /** Reads end among entries stamped too far ahead to page into (said once while it lasts). */
  private aheadBacklog = false;
  /** Entry key → its stamp, for entries later reads may list again. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly overlapMs: number,
    /** The service's time now (ms). */
    private readonly serviceTime: () => number,
  ) {
    this.anchorOverlapMs = overlapMs;
  }

  get anchored(): boolean {
    return this.isAnchored;
  }

  get behind(): boolean {
    return this.resumeAt !== null;
  }

  /**
   * Starts from the log as it stands (`newestFirst`: its newest entries, `sort=-createdAt`): the
   * overlap before the service's time, or the newest believable entry if older. A change made while
   * the resource was starting is still processed, and so are the few entries before it (a re-read
   * each, once). An empty log is read from its beginning.
   */
  anchor(newestFirst: readonly unknown[]): void {
    const now = this.serviceTime();
    this.restart();
    this.noteNewest(distinctStamps(newestFirst), now);
    this.sweptAt = now;
    if (newestFirst.length > 0) this.raiseFloor(this.floorFor(now, this.anchorOverlapMs));
    this.isAnchored = true;
  }

  /**
   * Starts from a position saved before (`position`, after a restart), the overlap before it. null:
   * from the log's beginning. A position ahead of the service's time cannot be where the log was
   * handled: the next read reports a gap, and starts from the overlap before the service's time.
   */
  resume(position: number | null): void {
    const now = this.serviceTime();
    this.restart();
    if (position !== null && position > now + DATE_RESOLUTION_MS) {
      this.pendingGap = `the position saved before the restart, ${iso(position)}, is ahead of the service's time, ${iso(now)}`;
      position = now;
    }
    this.sweptAt = position;
    this.floor = position === null ? null : position - this.overlapMs;
    this.isAnchored = true;
  }

  /**
   * How far the log was read (ms, service time): a sweep that began then read to its end, and the
   * next read starts the overlap before it. Never ahead of the service's time. null: none yet (the
   * log's beginning).
   */
  get position(): number | null {
    if (this.floor === null) return null;
    return Math.min(this.floor + this.overlapMs, this.sweptAt ?? Number.POSITIVE_INFINITY);
  }

  /** The `createdAt.after` of the next read, as ISO 8601 UTC; undefined: from the beginning. */
  after(): string | undefined {
    const from = this.resumeAt ?? this.floor;
    // `after` is exclusive: one millisecond earlier lists entries stamped `from` itself.
    return from === null ? undefined : new Date(Math.max(0, from - 1)).toISOString();
  }

  /** The read about to be asked for: notes the service's time if it begins a sweep; its `after`. */
  nextRead(): string | undefined {
    if (this.resumeAt === null) this.sweepStart = this.serviceTime();
    return this.after();
  }

  /** Takes in one read (oldest first), asked as `nextRead` said; `full`: it stopped at its size. */
  read(entries: readonly unknown[], full: boolean): CursorStep {
    const now = this.serviceTime();
    const from = this.resumeAt ?? this.floor;
    const fresh = entries.filter((entry) => this.accept(entry));
    const ahead: AheadEntry[] = [];
    for (const entry of fresh) {
      const aheadMs = createdAtOf(entry) - now;
      if (aheadMs > STAMP_AHEAD_MS) ahead.push({ entry, aheadMs });
    }
    const stamps = distinctStamps(entries);
    this.noteNewest(stamps, now);
    const step: CursorStep = { fresh, behind: false, gap: this.pendingGap, ahead };
    this.pendingGap = null;
    const last = stamps[0];
    if (full && last !== undefined && last > now + STAMP_AHEAD_MS) {
      // Sorted by stamp, every believable entry came before these: the read reached the end of
      // what can be believed. Paging on would start the next read in the future.
      step.gap ??= this.aheadBacklog
        ? null
        : `a read of ${entries.length} entries that ends among entries stamped more than ${STAMP_AHEAD_MS / 60_000} minutes ahead of the service's time`;
      this.aheadBacklog = true;
      this.caughtUp();
    } else if (full) {
      step.behind = true;
      step.gap ??= this.goOn(last, from, entries.length);
    } else {
      this.aheadBacklog = false;
      this.caughtUp();
    }
    this.prune();
    return step;
  }

  get size(): number {
    return this.seen.size;
  }

  private restart(): void {
    this.resumeAt = null;
    this.readsBehind = 0;
  }

  /** Where a sweep that began at the service's time `at` may start the next: the overlap before it. */
  private floorFor(at: number, overlapMs: number): number {
    return this.newest === null ? at - overlapMs : Math.min(at - overlapMs, this.newest);
  }

  private raiseFloor(to: number): void {
    this.floor = this.floor === null ? to : Math.max(this.floor, to);
  }

  /** Keeps the newest of these stamps (newest first) not too far ahead of the service's time `now`. */
  private noteNewest(stamps: readonly number[], now: number): void {
    const believable = stamps.find((stamp) => stamp <= now + STAMP_AHEAD_MS);
    if (believable !== undefined) this.newest = Math.max(this.newest ?? believable, believable);
  }

  /** After a read that stopped at its size: where the next starts, or why entries are lost. */
  private goOn(last: number | undefined, from: number | null, size: number): string | null {
    this.readsBehind++;
    if (last === undefined || this.readsBehind > MAX_CATCH_UP_READS) {
      // Paging on through the backlog would cost more than reading every member again.
      this.isAnchored = false;
      this.anchorOverlapMs = 0;
      this.resumeAt = null;
      return last === undefined
        ? `a read of ${size} entries without a readable createdAt`
        : `more than ${MAX_CATCH_UP_READS * size} entries behind`;
    }
    if (from !== null && last <= from) {
      // Every entry of the read has the stamp it started from: no page reaches past them. Go on
      // after that stamp (the gap's re-read covers what they said); later sweeps list them again
      // until the floor passes them, but say so once.
      this.resumeAt = last + 1;
      if (this.steppedOver === last) return null;
      this.steppedOver = last;
      return `more than ${size} entries stamped ${iso(last)}`;
    }
    this.resumeAt = last;
    return null;
  }

  private caughtUp(): void {
    this.resumeAt = null;
    this.readsBehind = 0;
    this.sweptAt = Math.max(this.sweptAt ?? this.sweepStart, this.sweepStart);
    // From the log's beginning until a believable entry is seen.
    if (this.floor !== null || this.newest !== null)
      this.raiseFloor(this.floorFor(this.sweepStart, this.overlapMs));
  }

  private accept(entry: unknown): boolean {
    const key = entryKey(entry);
    if (this.seen.has(key)) return false;
    const stamped = createdAtOf(entry);
    this.seen.set(key, Number.isNaN(stamped) ? (this.floor ?? 0) : stamped);
    return true;
  }

  /** Forgets entries no sweep lists again; keeps memory bounded. */
  private prune(): void {
    const floor = this.floor;
    if (floor !== null) for (const [key, at] of this.seen) if (at < floor) this.seen.delete(key);
    for (const key of this.seen.keys()) {
      if (this.seen.size <= MAX_SEEN) break;
      this.seen.delete(key);
    }
  }
}

function iso(at: number): string {
  return new Date(at).toISOString();
}
