/**
 * The list conventions of the roster API document, as the model service answers them: `page` and
 * `limit` (at most 100), `sort` by any sortable field (`-` descending), exact filters (a repeated
 * parameter means "either value"), `<field>.after` / `.before` (exclusive, ISO 8601), `q`, and
 * `include`. Anything a list does not allow is a `validation_error`, as the service would answer.
 */

/** A record as the model keeps it: dates as epoch ms (service time), everything else as sent. */
export type Row = Record<string, unknown> & { id: string; createdAt: number; tie: number };

/** What one list endpoint allows. */
export interface ListRules {
  filters: readonly string[];
  sortable: readonly string[];
  dates: readonly string[];
  searchable: readonly string[];
  includes: readonly string[];
}

export interface ListAnswer {
  rows: Row[];
  include: Set<string>;
  pagination: { page: number; limit: number; total: number; total_pages: number; has_more: boolean };
}

/** A query the service refuses, naming the field. */
export class ListQueryError extends Error {
  constructor(
    readonly field: string,
    why: string,
  ) {
    super(`${field} ${why}`);
  }
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const RESERVED = new Set(['page', 'limit', 'sort', 'q', 'include']);
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Answers one list request over `rows`; throws `ListQueryError` for a query the list refuses. */
export function answerList(rows: readonly Row[], params: URLSearchParams, rules: ListRules): ListAnswer {
  const limit = positive(params, 'limit', DEFAULT_LIMIT);
  if (limit > MAX_LIMIT) throw new ListQueryError('limit', `must be at most ${MAX_LIMIT}`);
  const page = positive(params, 'page', 1);
  const include = new Set(
    params
      .getAll('include')
      .flatMap((value) => value.split(','))
      .filter(Boolean),
  );
  for (const name of include)
    if (!rules.includes.includes(name)) throw new ListQueryError('include', `cannot include ${name}`);
  let kept = rows.filter(matching(params, rules));
  const q = params.get('q');
  if (q !== null && q !== '') {
    const wanted = q.toLowerCase();
    kept = kept.filter((row) =>
      rules.searchable.some((field) =>
        String(row[field] ?? '')
          .toLowerCase()
          .includes(wanted),
      ),
    );
  }
  kept.sort(ordering(params.get('sort'), rules));
  const total = kept.length;
  const totalPages = Math.ceil(total / limit);
  return {
    rows: kept.slice((page - 1) * limit, page * limit),
    include,
    pagination: { page, limit, total, total_pages: totalPages, has_more: page < totalPages },
  };
}

function positive(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ListQueryError(name, 'must be a positive integer');
  return Number(raw);
}

function matching(params: URLSearchParams, rules: ListRules): (row: Row) => boolean {
  const exact = new Map<string, Set<string>>();
  const ranges: { field: string; after: boolean; at: number }[] = [];
  for (const [name, value] of params) {
    if (RESERVED.has(name)) continue;
    const range = /^(.+)\.(after|before)$/.exec(name);
    if (range) {
      const field = range[1]!;
      if (!rules.dates.includes(field)) throw new ListQueryError(name, 'is not a date range of this list');
      const at = ISO_8601.test(value) ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(at)) throw new ListQueryError(name, 'must be an ISO 8601 date-time');
      ranges.push({ field, after: range[2] === 'after', at });
      continue;
    }
    if (!rules.filters.includes(name)) throw new ListQueryError(name, 'is not a filter of this list');
    const values = exact.get(name) ?? new Set<string>();
    values.add(value);
    exact.set(name, values);
  }
  return (row) => {
    for (const [field, values] of exact) if (!values.has(String(row[field]))) return false;
    for (const { field, after, at } of ranges) {
      const value = row[field];
      if (typeof value !== 'number') return false;
      if (after ? value <= at : value >= at) return false;
    }
    return true;
  };
}

/**
 * The order asked for; records equal on every key keep an order of their own (`tie`, a hidden
 * number the model gives each record), as a database's is: stable, but not by id.
 */
function ordering(sort: string | null, rules: ListRules): (a: Row, b: Row) => number {
  const keys = (sort ?? 'createdAt')
    .split(',')
    .filter(Boolean)
    .map((part) => {
      const descending = part.startsWith('-');
      const field = descending ? part.slice(1) : part;
      if (!rules.sortable.includes(field)) throw new ListQueryError('sort', `cannot sort by ${field}`);
      return { field, sign: descending ? -1 : 1 };
    });
  return (a, b) => {
    for (const { field, sign } of keys) {
      const order = compare(a[field], b[field]);
      if (order !== 0) return order * sign;
    }
    return a.tie - b.tie;
  };
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  return x < y ? -1 : x > y ? 1 : 0;
}
