import { createdAtOf, distinctStamps, entryKey } from './entry-identity';
import { SettleMarks } from './settle-marks';

/** Most entry keys remembered; the oldest go first beyond it. */
const MAX_SEEN = 25_000;

/**
 * Reads in a row that each stopped at their size before the feed gives up paging through a
 * backlog: 20,000 entries (200 requests), about what reading every member again costs.
 */
export const MAX_CATCH_UP_READS = 10;

/** What one read of the log means for the cursor. */
export interface CursorStep {
  /** Entries not processed before, oldest first. */
  fresh: unknown[];
  /** The read stopped at its size: the next one goes on after its last entry. */
  behind: boolean;
  /** Entries that will never be read, and why; null when none. */
  gap: string | null;
}

/**
 * Where the next read of the audit log starts, and which entries were already processed. Stamps
 * are the service's own (`createdAt`): this server's clock may be minutes off the service's, so
 * the two are never compared; this server's clock only measures time elapsed between reads.
 *
 * A sweep reads from a settled floor: `createdAt.after` is exclusive and an entry may commit a
 * moment after one stamped later, so the floor stays below the newest entries until such late
 * entries can no longer appear (`SettleMarks`); entries read again inside it are recognised by key.
 * A read that stops at its size (a burst) is followed by one that goes on after its last entry,
 * never by the same pages again. The cursor never moves on the newest stamp alone: an entry stamped
 * in the future by a fault would hide every entry after it; a later entry has to confirm it.
 */
export class AuditCursor {
  /** The earliest stamp a sweep lists (ms, service time); null: from the log's beginning. */
  private floor: number | null = null;
  /** Set while behind: the stamp the next read starts at (its entries again, then further). */
  private resumeAt: number | null = null;
  private isAnchored = false;
  /** How far below the newest entries an anchor starts: none after a gap, which is read again anyway. */
  private anchorOverlapMs: number;
  /** This server's time when the current sweep (and the reads going on from it) began. */
  private sweepAt = 0;
  private readsBehind = 0;
  private confirmed = Number.NEGATIVE_INFINITY;
  private readonly marks: SettleMarks;
  /** Entry key → its stamp, for entries later reads may list again. */
  private readonly seen = new Map<string, number>();

  constructor(overlapMs: number) {
    this.marks = new SettleMarks(overlapMs);
    this.anchorOverlapMs = overlapMs;
  }

  get anchored(): boolean {
    return this.isAnchored;
  }

  get behind(): boolean {
    return this.resumeAt !== null;
  }

  /**
   * Starts from the newest entries the service holds (`sort=-createdAt`), the overlap before them:
   * a change made while the resource was starting is still processed, and so are the few entries
   * before it (a re-read each, once). With fewer than two entries the log is read from its
   * beginning (nothing in it but them). `at`: this server's time.
   */
  anchor(newestFirst: readonly unknown[], at: number): void {
    this.resume(distinctStamps(newestFirst)[1] ?? null, at);
  }

  /**
   * Starts from a position saved before (`position`, after a restart), as an anchor on it would:
   * the overlap before it is read again, so entries committed late below it are still processed.
   * null: from the log's beginning. `at`: this server's time.
   */
  resume(position: number | null, at: number): void {
    this.floor = position === null ? null : position - this.anchorOverlapMs;
    this.resumeAt = null;
    this.readsBehind = 0;
    this.marks.clear();
    if (position !== null) {
      this.confirmed = Math.max(this.confirmed, position);
      this.marks.note(at, this.confirmed);
    }
    this.isAnchored = true;
  }

  /**
   * The newest stamp a later entry confirmed (ms, service time): every entry up to it was listed,
   * but for late commits, which the overlap before it covers. null: none yet (the log's beginning).
   */
  get position(): number | null {
    return this.confirmed === Number.NEGATIVE_INFINITY ? null : this.confirmed;
  }

  /** The `createdAt.after` of the next read, as ISO 8601 UTC; undefined: from the beginning. */
  after(): string | undefined {
    const from = this.resumeAt ?? this.floor;
    // `after` is exclusive: one millisecond earlier lists entries stamped `from` itself.
    return from === null ? undefined : new Date(Math.max(0, from - 1)).toISOString();
  }

  /** Takes in one read (oldest first); `full`: it stopped at its size; `at`: this server's time. */
  read(entries: readonly unknown[], full: boolean, at: number): CursorStep {
    const from = this.resumeAt ?? this.floor;
    if (this.resumeAt === null) this.sweepAt = at;
    const fresh = entries.filter((entry) => this.accept(entry));
    const stamps = distinctStamps(entries);
    if (stamps[1] !== undefined && stamps[1] > this.confirmed) this.confirmed = stamps[1];
    if (this.confirmed > Number.NEGATIVE_INFINITY) this.marks.note(at, this.confirmed);
    const step: CursorStep = { fresh, behind: full, gap: null };
    if (full) step.gap = this.goOn(stamps[0], from, entries.length);
    else this.caughtUp();
    this.prune();
    return step;
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
      // Every entry of the read has the stamp it started from: no page reaches past them. Step
      // over that stamp for good (the gap's re-read covers what they said); all below it was read.
      this.floor = last + 1;
      this.resumeAt = null;
      this.readsBehind = 0;
      return `more than ${size} entries stamped ${new Date(last).toISOString()}`;
    }
    this.resumeAt = last;
    return null;
  }

  private caughtUp(): void {
    this.resumeAt = null;
    this.readsBehind = 0;
    const settled = this.marks.settledFor(this.sweepAt);
    if (settled !== undefined) this.floor = Math.max(this.floor ?? settled, settled);
  }

  get size(): number {
    return this.seen.size;
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
