import type { QueryValues } from '../../roster/client/roster-api';
import { readByKey, type StopWhen } from './keyset-read';
import { reconcile } from './list-reconciliation';
import { type CreatedRange, ListRecords } from './list-records';
import type { MirrorPacer } from './mirror-pacer';
import { readByNumberConfirmed } from './numbered-read';
import { PacedList, type PageSource } from './paced-pages';

/** A list the mirror reads whole. */
export interface ListToRead {
  path: string;
  /** Filters and includes; the read sets `sort`, `limit`, `page` and the `createdAt` bounds. */
  query: QueryValues;
  /** Only records created after this (epoch ms, exclusive). */
  after?: number;
  /** Pages the whole list takes at most: past a few times this, its paging is taken as broken. */
  maxPages: number;
  /** More records than this are not kept: the read stops as soon as the list is known larger. */
  atMost?: number;
}

export type ListRead = { kind: 'read'; records: unknown[] } | { kind: 'too-many'; size: number };

/**
 * Every record of a list, once each, oldest first: read by key (`createdAt`), so no change made
 * meanwhile moves a record out of the read; then reconciled with the service's count as the read
 * ends, so it is never stored short (that count mostly comes with the last page, newest first,
 * else it costs one small request). A list that cannot be read by key is read by page numbers
 * until two reads agree. Throws when the list cannot be made whole: the caller keeps what it held.
 */
export async function readList(source: PageSource, pacer: MirrorPacer, list: ListToRead): Promise<ListRead> {
  // Room for the pages re-read where they overlap, runs of one stamp, the reconciliation, and a
  // read by page numbers done again to be confirmed.
  const paced = new PacedList(source, pacer, list.path, list.query, 3 * list.maxPages + 10);
  const range: CreatedRange = { after: list.after ?? null, before: null };
  const { atMost } = list;
  let size = 0;
  /** The service says how many records a list holds: a read can be reconciled with it. */
  let counted = false;
  const stop: StopWhen = (page, held) => {
    counted ||= page.total !== undefined;
    size = Math.max(page.total ?? 0, held.size);
    return atMost !== undefined && size > atMost;
  };
  let held: ListRecords | null = new ListRecords();
  const read = await readByKey(paced, held, range, stop);
  if (read.kind === 'stopped') return { kind: 'too-many', size };
  let byKey = read.kind === 'read';
  // Nothing to reconcile when the last answer counted the whole list and it matches. Else the part
  // read is reconciled, up to the newest record held: records created since the last page (the
  // audit log and the next read of new members bring them) change no count there, so a roster
  // that changes all the time is still read whole.
  if (read.kind === 'read' && counted && read.total !== held.size) {
    const newest = held.newest();
    const part = newest === null ? range : { after: range.after, before: newest + 1 };
    byKey = (await reconcile(paced, held, part, part === range ? read.total : null)) === 'settled';
  }
  if (!byKey) held = await readByNumberConfirmed(paced, range, stop);
  if (held === null) return { kind: 'too-many', size };
  // Records the reconciliation brought in count too.
  if (atMost !== undefined && held.size > atMost) return { kind: 'too-many', size: held.size };
  return { kind: 'read', records: held.records() };
}
