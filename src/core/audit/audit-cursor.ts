/** Most entry keys remembered; the oldest go first beyond it. */
const MAX_SEEN = 20_000;

/**
 * Where the next read of the audit log starts, and which entries were already processed.
 *
 * `createdAt.after` is exclusive and the service stamps entries itself, so reading strictly after
 * the last entry seen would miss an entry stamped with the same time but committed a moment later,
 * or one from a clock a little behind. Each read therefore starts `overlapMs` before the latest
 * entry seen (before the resource's start at first), and entries already processed inside that
 * overlap are recognised by key and skipped: none is missed, none is processed twice.
 */
export class AuditCursor {
  private latest: number;
  /** Entry key → the time it was stamped with (ms), for entries inside the overlap. */
  private readonly seen = new Map<string, number>();

  constructor(
    startedAt: number,
    private readonly overlapMs: number,
    private readonly now: () => number,
  ) {
    this.latest = startedAt;
  }

  /** The `createdAt.after` of the next read, as ISO 8601 UTC. */
  after(): string {
    return new Date(Math.max(0, this.latest - this.overlapMs)).toISOString();
  }

  /** True for an entry not processed before (and remembers it); false for one already seen. */
  accept(entry: unknown): boolean {
    const key = entryKey(entry);
    if (this.seen.has(key)) return false;
    // An entry stamped in the far future must not push the cursor past entries still to come.
    const stamped = createdAtOf(entry);
    const at = Math.min(Number.isNaN(stamped) ? this.latest : stamped, this.now() + this.overlapMs);
    this.seen.set(key, at);
    if (at > this.latest) this.latest = at;
    return true;
  }

  /** Forgets entries too old to be listed again; keeps memory bounded. */
  prune(): void {
    const horizon = this.latest - this.overlapMs;
    for (const [key, at] of this.seen) if (at < horizon) this.seen.delete(key);
    for (const key of this.seen.keys()) {
      if (this.seen.size <= MAX_SEEN) break;
      this.seen.delete(key);
    }
  }

  get size(): number {
    return this.seen.size;
  }
}

/** `createdAt` is documented for every resource; anything unreadable gives NaN. */
function createdAtOf(entry: unknown): number {
  if (typeof entry !== 'object' || entry === null) return Number.NaN;
  const value = (entry as { createdAt?: unknown }).createdAt;
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/** The entry's id when it has one, else its whole text. */
function entryKey(entry: unknown): string {
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
