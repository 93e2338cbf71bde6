import { type CreatedRange, type ListRecords, rangeQuery } from './list-records';
import { brokenPaging, type ListPage, PAGE_SIZE, type PacedList } from './paced-pages';

/**
 * How a read by key ended: every record read (with the range's count as the read ended, when an
 * answer gave it then); stopped by the caller; or a page held a record without a readable
 * `createdAt` (or was out of `createdAt` order), so the list cannot be read by key.
 */
export type KeyRead = { kind: 'read'; total: number | null } | { kind: 'stopped' } | { kind: 'unstamped' };

/** Asked after every page: true stops the read (the list is larger than the caller keeps). */
export type StopWhen = (page: ListPage, held: ListRecords) => boolean;

const never: StopWhen = () => false;

/** Records left that the last page is asked for newest first: room for a few created meanwhile. */
const LAST_PAGE_ROOM = PAGE_SIZE - 10;

/**
 * Reads `range` of a list by its key: in `createdAt` order, each next page asked `createdAt.after`
 * the newest stamp read minus 1 ms, so the records sharing that stamp are read again (and held
 * once) and a record deleted or created meanwhile moves no other record out of the read. A page
 * that one stamp fills would be answered again and again: that stamp's records are read on their
 * own, by page numbers between bounds just around it, and the read steps past it.
 */
export async function readByKey(
  list: PacedList,
  held: ListRecords,
  range: CreatedRange,
  stop: StopWhen = never,
): Promise<KeyRead> {
  let after = range.after;
  /** Records after `after` the service counted at the last page, when it did. */
  let left: number | null = null;
  for (let first = true; ; first = false) {
    if (after !== null && left !== null && left <= LAST_PAGE_ROOM && range.before === null) {
      const last = await readNewestPage(list, held, range, after, stop);
      if (last !== null) return last;
    }
    const page = await list.page(rangeQuery({ after, before: range.before }));
    const stamps = held.take(page.items);
    if (stop(page, held)) return { kind: 'stopped' };
    // A list answered whole at once needs no key, and is counted by that answer.
    const whole = first && !page.more ? page.items.length : null;
    if (stamps === null) return whole !== null ? { kind: 'read', total: whole } : { kind: 'unstamped' };
    if (!page.more) return { kind: 'read', total: whole };
    const oldest = stamps[0]!;
    const newest = stamps[stamps.length - 1]!;
    if (after !== null && newest < after)
      throw brokenPaging(`GET ${list.path} answered records created before the createdAt.after asked`);
    if (oldest < newest && (after === null || newest - 1 > after)) {
      const passed = stamps.filter((at) => at < newest).length;
      left = page.total === undefined ? null : page.total - passed;
      after = newest - 1;
      continue;
    }
    const run = { after: Math.max(oldest - 1, range.after ?? Number.NEGATIVE_INFINITY), before: newest + 2 };
    if (range.before !== null) run.before = Math.min(run.before, range.before);
    if ((await readRun(list, held, run, stop)) === 'stopped') return { kind: 'stopped' };
    // Everything before `newest + 2` ms is read: asking after `newest + 1` overlaps it by 1 ms.
    left = null;
    after = newest + 1;
  }
}

/**
 * The last few records asked newest first, with no bound above: one answer that reads them and
 * counts the whole range as it stands, so no request is spent on the count. Null when the page
 * does not reach back to `after` (more were created meanwhile than it holds): the read goes on by key.
 */
async function readNewestPage(
  list: PacedList,
  held: ListRecords,
  range: CreatedRange,
  after: number,
  stop: StopWhen,
): Promise<KeyRead | null> {
  const page = await list.page({ ...rangeQuery(range), sort: '-createdAt' });
  const stamps = held.take([...page.items].reverse());
  if (stop(page, held)) return { kind: 'stopped' };
  if (stamps === null) return { kind: 'unstamped' };
  if (!page.more) return { kind: 'read', total: page.items.length };
  const oldest = stamps[0];
  if (oldest === undefined || oldest > after || page.total === undefined) return null;
  return { kind: 'read', total: page.total };
}

/** Every record of a narrow range, by page numbers (a run of one stamp is not shifted by others). */
async function readRun(list: PacedList, held: ListRecords, run: CreatedRange, stop: StopWhen) {
  for (let page = 1; ; page++) {
    const answer = await list.page({ ...rangeQuery(run), page });
    held.take(answer.items);
    if (stop(answer, held)) return 'stopped';
    if (!answer.more) return 'read';
  }
}
