/** Most entry keys remembered; the oldest go first beyond it. */
const MAX_SEEN = 20_000;

/**
 * Where the next read of the audit log starts, and which entries were already processed. Every time
 * here is the service's own (`createdAt` of its entries): this server's clock may be minutes off the
 * service's, so the two are never compared.
 *
 * `createdAt.after` is exclusive and the service stamps entries itself, so reading strictly after
 * the last entry seen would miss an entry stamped with the same time but committed a moment later,
 * or one from a clock a little behind. Each read therefore starts `overlapMs` before the entries
 * seen, and entries already processed inside that overlap are recognised by key and skipped: none
 * is missed, none is processed twice.
 *
 * The cursor never moves on the newest stamp alone: an entry stamped in the future by a fault
 * would hide every entry after it. It moves on the newest stamp that some later entry confirms.
 */
export class AuditCursor {
  /** The earliest stamp the next read lists (ms, service time); null: from the log's beginning. */
  private from: number | null = null;
  private isAnchored = false;
  /** Entry key → its stamp (ms), for entries the next reads may list again. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly overlapMs: number) {}

  get anchored(): boolean {
    return this.isAnchored;
  }

  /**
   * Starts from the newest entries the service holds (`sort=-createdAt`), the overlap before them:
   * a change made while the resource was starting, just before this read, is still processed, and
   * so are the few entries before it (a re-read each, once). With fewer than two entries the log is
   * read from its beginning (nothing in it but them).
   */
  anchor(newestFirst: readonly unknown[]): void {
    const confirmed = stamps(newestFirst)[1];
    this.from = confirmed === undefined ? null : confirmed - this.overlapMs;
    this.isAnchored = true;
  }

  /** The `createdAt.after` of the next read, as ISO 8601 UTC; undefined: from the beginning. */
  after(): string | undefined {
    // `after` is exclusive: one millisecond earlier lists entries stamped `from` itself.
    return this.from === null ? undefined : new Date(Math.max(0, this.from - 1)).toISOString();
  }

  /** The entries of a read (oldest first) not processed before; remembers them and moves on. */
  read(entries: readonly unknown[]): unknown[] {
    const fresh = entries.filter((entry) => this.accept(entry));
    const confirmed = stamps(entries)[1];
    if (confirmed !== undefined)
      this.from = Math.max(this.from ?? Number.NEGATIVE_INFINITY, confirmed - this.overlapMs);
    this.prune();
    return fresh;
  }

  get size(): number {
    return this.seen.size;
  }

  private accept(entry: unknown): boolean {
    const key = entryKey(entry);
    if (this.seen.has(key)) return false;
    const stamped = createdAtOf(entry);
    this.seen.set(key, Number.isNaN(stamped) ? (this.from ?? 0) : stamped);
    return true;
  }

  /** Forgets entries the next reads cannot list; keeps memory bounded. */
  private prune(): void {
    const from = this.from;
    if (from !== null) for (const [key, at] of this.seen) if (at < from) this.seen.delete(key);
    for (const key of this.seen.keys()) {
      if (this.seen.size <= MAX_SEEN) break;
      this.seen.delete(key);
    }
  }
}

/** The distinct stamps of these entries, newest first. */
function stamps(entries: readonly unknown[]): number[] {
  const all = new Set<number>();
  for (const entry of entries) {
    const at = createdAtOf(entry);
    if (!Number.isNaN(at)) all.add(at);
  }
  return [...all].sort((a, b) => b - a);
}

/** `createdAt` is documented for every resource; anything unreadable gives NaN. */
export function createdAtOf(entry: unknown): number {
  if (typeof entry !== 'object' || entry === null) return Number.NaN;
  const value = (entry as { createdAt?: unknown }).createdAt;
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/** The entry's id when it has one, else its whole text. */
export function entryKey(entry: unknown): string {
  if (typeof entry === 'object' && entry !== null) {
    const id = (entry as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return `id:${id}`;
  }
  let text: string;
  try {
    text = JSON.stringify(entry) ?? String(entry);
  } catch {
    text = String(entry);
  }
  return `text:${text.slice(0, 4_000)}`;
}
