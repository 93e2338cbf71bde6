import { readByKey } from './keyset-read';
import { ListReadError } from './list-read-error';
import { type CreatedRange, ListRecords, rangeQuery } from './list-records';
import { PAGE_SIZE, type PacedList } from './paced-pages';

/** Times the difference is re-read before the list is given up as changing faster than it is read. */
const ROUNDS = 3;

/** How a part of the list compares with what is held of it, from one request. */
type Comparison =
  | { kind: 'same' }
  /** `short`: the service counts more records than are held; else fewer (deleted since read). */
  | { kind: 'differs'; short: boolean }
  | { kind: 'uncounted' }
  | { kind: 'replaced'; changed: boolean };

/**
 * Makes what was read of `range` agree with the list as it stands now. When the service's count
 * of the range as the read ended (`total`, else asked once more) differs from the records held
 * (one was deleted after its page was read, or created with a stamp already passed), the range is
 * halved at the middle stamp held, each half counted, and a half that still differs is halved
 * again until it fits in one page, which is read in place of what was held in it: the difference
 * is re-read, not the whole list. Counted again after each repair; after a few, a part still
 * holding more than counted stands (deletions, which the audit log names) and one still short fails.
 * 'unreachable' when every part agrees and the whole still does not: records the stamps cannot
 * reach (no `createdAt`) make the difference, and the list has to be read by page numbers. A
 * service that does not count leaves the read by key as it is.
 */
export async function reconcile(
  list: PacedList,
  held: ListRecords,
  range: CreatedRange,
  total: number | null,
): Promise<'settled' | 'unreachable'> {
  for (let round = 0; ; round++) {
    // The count the read ended with, when it gave one, is as good as asking again.
    const known = round === 0 && total !== null;
    const comparison = known ? counted(held, range, total) : await compare(list, held, range);
    if (comparison.kind !== 'differs') return 'settled';
    if (round === ROUNDS) {
      // Still more held than counted: records deleted after they were read, faster than they are
      // re-read (a roster that changes all the time). None is missing, and the audit log names
      // each deletion, so the members are read again: the read stands. A part still short fails.
      if (!comparison.short) return 'settled';
      throw new ListReadError(
        `GET ${list.path} kept changing while it was read: its total still differed from the ${held.size} records read after ${ROUNDS} re-reads of the difference`,
      );
    }
    if ((await repair(list, held, range)) === 0) return 'unreachable';
  }
}

/** One request: the range's count, or the range itself when it fits in one page. */
async function compare(list: PacedList, held: ListRecords, range: CreatedRange): Promise<Comparison> {
  const ours = held.stampsIn(range).length;
  // A part larger than a page is only counted: one record is enough to learn the total.
  const page = await list.page({ ...rangeQuery(range), limit: ours <= PAGE_SIZE ? PAGE_SIZE : 1 });
  if (!page.more) return { kind: 'replaced', changed: held.replaceIn(range, page.items) };
  return counted(held, range, page.total);
}

function counted(held: ListRecords, range: CreatedRange, total: number | undefined): Comparison {
  if (total === undefined) return { kind: 'uncounted' };
  const ours = held.stampsIn(range).length;
  return total === ours ? { kind: 'same' } : { kind: 'differs', short: total > ours };
}

/** Re-reads the parts of `range` that differ; how many re-reads changed what is held. */
async function repair(list: PacedList, held: ListRecords, range: CreatedRange): Promise<number> {
  const middle = middleStamp(held.stampsIn(range));
  if (middle === null) {
    // Too few records held here to halve: the range is read again whole, by key.
    const again = new ListRecords();
    if ((await readByKey(list, again, range)).kind !== 'read')
      throw new ListReadError(
        `GET ${list.path} answered records without a createdAt, or out of its order, between createdAt bounds`,
      );
    return held.replaceIn(range, again.records()) ? 1 : 0;
  }
  let repaired = 0;
  for (const half of [
    { after: range.after, before: middle + 1 },
    { after: middle, before: range.before },
  ]) {
    const comparison = await compare(list, held, half);
    if (comparison.kind === 'uncounted')
      throw new ListReadError(`GET ${list.path} stopped saying how many records it holds`);
    if (comparison.kind === 'replaced' && comparison.changed) repaired++;
    if (comparison.kind === 'differs') repaired += await repair(list, held, half);
  }
  return repaired;
}

/**
 * A stamp that splits `stamps` (oldest first) into two non-empty halves: those up to it and those
 * after it. Null when fewer than two distinct stamps are held.
 */
function middleStamp(stamps: readonly number[]): number | null {
  const newest = stamps[stamps.length - 1];
  if (newest === undefined) return null;
  for (let i = Math.floor((stamps.length - 1) / 2); i >= 0; i--) if (stamps[i]! < newest) return stamps[i]!;
  return null;
}
