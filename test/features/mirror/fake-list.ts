import { MirrorPacer } from '../../../src/features/mirror/mirror-pacer';
import type { PageSource } from '../../../src/features/mirror/paced-pages';
import type { QueryValues } from '../../../src/roster/client/roster-api';
import { FakeClock } from '../../http/limiter/fake-clock';

/** A record of a fake list: an id, a `createdAt` (absent or unreadable in some tests), anything else. */
export interface ListedRecord {
  id: string;
  createdAt?: unknown;
  [field: string]: unknown;
}

/**
 * One list endpoint as the service answers it: exact filters (a list of values means either),
 * `sort=createdAt` or `-createdAt` (ties in the order the records were added), `createdAt.after` /
 * `.before` (exclusive; a record without a readable stamp is left out of any range), `page`,
 * `limit`, and `total` unless `counts` is false.
 */
export class FakeList {
  records: ListedRecord[] = [];
  counts = true;
  /** What each request asked, in order. */
  readonly asked: QueryValues[] = [];
  /** Runs before each request is answered (`n` counts requests from 1): changes made mid-read. */
  beforeAnswer: ((query: QueryValues, n: number) => void) | null = null;

  answer(query: QueryValues): unknown {
    this.asked.push(query);
    this.beforeAnswer?.(query, this.asked.length);
    const after = stampOf(query['createdAt.after']);
    const before = stampOf(query['createdAt.before']);
    let rows = this.records.filter((record) => {
      for (const [field, wanted] of Object.entries(query)) {
        if (RESERVED.has(field) || wanted === undefined) continue;
        const values = (Array.isArray(wanted) ? wanted : [wanted]).map(String);
        if (!values.includes(String(record[field]))) return false;
      }
      if (after === null && before === null) return true;
      const at = stampOf(record.createdAt);
      return at !== null && (after === null || at > after) && (before === null || at < before);
    });
    const sort = query.sort;
    if (sort === 'createdAt' || sort === '-createdAt') {
      const direction = sort === 'createdAt' ? 1 : -1;
      const order = (r: ListedRecord) => stampOf(r.createdAt) ?? Number.POSITIVE_INFINITY;
      rows = [...rows].sort((a, b) => direction * (order(a) - order(b) || 0));
    }
    const limit = Number(query.limit ?? 25);
    const page = Number(query.page ?? 1);
    const total = rows.length;
    const pagination = {
      page,
      limit,
      total_pages: Math.ceil(total / limit),
      has_more: page * limit < total,
      ...(this.counts ? { total } : {}),
    };
    return { success: true, data: rows.slice((page - 1) * limit, page * limit), meta: { pagination } };
  }

  /** Ids held by the service now. */
  ids(): string[] {
    return this.records.map((r) => r.id);
  }
}

const RESERVED = new Set(['sort', 'limit', 'page', 'include', 'createdAt.after', 'createdAt.before']);

function stampOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}

/** A stamp `ms` after the start of 2025, as the service writes it. */
export const stamp = (ms: number): string => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();

/** A source answering each path from its fake list, a pacer and a clock, all fake. */
export function fakeLists(lists: Record<string, FakeList>) {
  const clock = new FakeClock();
  const source: PageSource = {
    getRaw: async (path, query = {}) => {
      const list = lists[path];
      if (!list) throw new Error(`no fake list at ${path}`);
      return list.answer(query);
    },
  };
  const pacer = new MirrorPacer(clock, () => ({
    perMinute: 120,
    remainingThisMinute: 120,
    resetAt: null,
    joinsWaiting: 0,
  }));
  return { clock, source, pacer };
}
