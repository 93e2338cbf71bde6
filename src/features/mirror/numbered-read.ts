import type { StopWhen } from './keyset-read';
import { ListReadError } from './list-read-error';
import { type CreatedRange, ListRecords, rangeQuery } from './list-records';
import type { PacedList } from './paced-pages';

/** Reads of a list by page numbers before it is given up when no two in a row agree. */
const MAX_READS = 3;

/**
 * A list that cannot be read by key (records without a readable `createdAt`, pages out of its
 * order) is read by page numbers. There a record deleted on a page already read moves another out
 * of the read unseen, and a record created meanwhile makes the count come out right all the same,
 * so no total can vouch for it: it is read again until two reads in a row hold the same records.
 * A list answered whole in one page needs no second read. Null when `stop` stopped it.
 */
export async function readByNumberConfirmed(
  list: PacedList,
  range: CreatedRange,
  stop: StopWhen,
): Promise<ListRecords | null> {
  let previous: ListRecords | null = null;
  for (let read = 1; read <= MAX_READS; read++) {
    const held = new ListRecords();
    const pages = await readByNumber(list, held, range, stop);
    if (pages === null) return null;
    if (pages === 1 || (previous !== null && sameRecords(previous, held))) return held;
    previous = held;
  }
  throw new ListReadError(
    `GET ${list.path} has records without a createdAt the mirror can page by, and ${MAX_READS} reads of it by page number never agreed (it kept changing)`,
  );
}

/** Pages 1, 2… of the list; how many there were, or null when `stop` stopped the read. */
async function readByNumber(
  list: PacedList,
  held: ListRecords,
  range: CreatedRange,
  stop: StopWhen,
): Promise<number | null> {
  for (let page = 1; ; page++) {
    const answer = await list.page({ ...rangeQuery(range), page });
    held.take(answer.items);
    if (stop(answer, held)) return null;
    if (!answer.more) return page;
  }
}

function sameRecords(a: ListRecords, b: ListRecords): boolean {
  const keys = a.keys();
  return keys.size === b.size && [...b.keys()].every((key) => keys.has(key));
}
