import type { QueryValues } from '../../roster/client/roster-api';

/**
 * Records created strictly between `after` and `before` (epoch ms; null: unbounded), as the
 * service's `createdAt.after` / `createdAt.before` ask them.
 */
export interface CreatedRange {
  after: number | null;
  before: number | null;
}

/** The query parameters that ask for `range`. */
export function rangeQuery(range: CreatedRange): QueryValues {
  const query: QueryValues = {};
  if (range.after !== null) query['createdAt.after'] = new Date(range.after).toISOString();
  if (range.before !== null) query['createdAt.before'] = new Date(range.before).toISOString();
  return query;
}

function inRange(at: number, range: CreatedRange): boolean {
  return (range.after === null || at > range.after) && (range.before === null || at < range.before);
}

interface Held {
  record: unknown;
  /** `createdAt` in epoch ms (what `Date.parse` makes of it); null when it cannot be read. */
  at: number | null;
}

/**
 * A list's records as read so far, one per id: a record read again (pages overlap, a range is
 * re-read) replaces its earlier copy, so nothing is counted or stored twice.
 */
export class ListRecords {
  private readonly byKey = new Map<string, Held>();

  get size(): number {
    return this.byKey.size;
  }

  /**
   * Takes a page's records. Returns their stamps in page order, or null when one has no readable
   * `createdAt` or the page is not in `createdAt` order: such a list cannot be read by its stamps.
   */
  take(items: readonly unknown[]): number[] | null {
    const stamps: number[] = [];
    let ordered = true;
    for (const record of items) {
      const at = createdAtOf(record);
      this.byKey.set(keyOf(record), { record, at });
      if (at === null) ordered = false;
      else if (stamps.length > 0 && at < stamps[stamps.length - 1]!) ordered = false;
      if (at !== null) stamps.push(at);
    }
    return ordered ? stamps : null;
  }

  /** The newest stamp held; null when none is readable. */
  newest(): number | null {
    let newest: number | null = null;
    for (const { at } of this.byKey.values())
      if (at !== null && (newest === null || at > newest)) newest = at;
    return newest;
  }

  /** Stamps of the records held in `range`, oldest first. */
  stampsIn(range: CreatedRange): number[] {
    const stamps: number[] = [];
    for (const { at } of this.byKey.values()) if (at !== null && inRange(at, range)) stamps.push(at);
    return stamps.sort((a, b) => a - b);
  }

  /**
   * What the service answered for `range` replaces what is held in it. Returns whether that
   * changed which records are held there.
   */
  replaceIn(range: CreatedRange, items: readonly unknown[]): boolean {
    const before = new Set<string>();
    for (const [key, { at }] of this.byKey) {
      if (at === null || !inRange(at, range)) continue;
      before.add(key);
      this.byKey.delete(key);
    }
    this.take(items);
    const now = items.map(keyOf);
    return now.length !== before.size || now.some((key) => !before.has(key));
  }

  /** Ids (or whole records, for one without an id) held. */
  keys(): Set<string> {
    return new Set(this.byKey.keys());
  }

  /** The records, oldest first (records without a stamp last, in the order read). */
  records(): unknown[] {
    const held = [...this.byKey.values()];
    const order = (h: Held) => h.at ?? Number.POSITIVE_INFINITY;
    return held.sort((a, b) => order(a) - order(b) || 0).map((h) => h.record);
  }
}

function createdAtOf(record: unknown): number | null {
  if (typeof record !== 'object' || record === null) return null;
  const { createdAt } = record as { createdAt?: unknown };
  if (typeof createdAt !== 'string') return null;
  const at = Date.parse(createdAt);
  return Number.isFinite(at) ? at : null;
}

/** A record is known by its id; one without an id (it will not be read anyway) by its content. */
function keyOf(record: unknown): string {
  if (typeof record === 'object' && record !== null && 'id' in record) {
    const { id } = record as { id: unknown };
    if (typeof id === 'string' || typeof id === 'number') return `id ${String(id)}`;
  }
  return `record ${JSON.stringify(record) ?? String(record)}`;
}
