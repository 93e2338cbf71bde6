import { validationError } from './api-error';

/** What a list endpoint allows: which fields filter, sort, search and take date ranges. */
export interface ListSpec {
  /** Fields usable as exact filters (`field=value`, repeated = either value). */
  filters: readonly string[];
  sortable: readonly string[];
  /** Fields `q` searches, case-insensitively, as a substring. */
  searchable: readonly string[];
  /** Fields usable with `.after` / `.before`. */
  dates: readonly string[];
  includes: readonly string[];
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  total_pages: number;
  has_more: boolean;
}

export interface ListQuery {
  page: number;
  limit: number;
  sort: { field: string; descending: boolean }[];
  q: string | null;
  filters: Map<string, Set<string>>;
  ranges: { field: string; after: number | null; before: number | null }[];
  include: Set<string>;
}

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

const RESERVED = new Set(['page', 'limit', 'sort', 'q', 'include']);
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function positiveInteger(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw validationError(name, 'must be a positive integer');
  return Number(raw);
}

function parseDate(field: string, raw: string): number {
  const time = ISO_8601.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(time)) throw validationError(field, 'must be an ISO 8601 date-time');
  return time;
}

/** Reads the list conventions of the document from a query string; anything unknown is a validation_error. */
export function parseListQuery(params: URLSearchParams, spec: ListSpec): ListQuery {
  const limit = positiveInteger(params, 'limit', DEFAULT_LIMIT);
  if (limit > MAX_LIMIT) throw validationError('limit', `must be at most ${MAX_LIMIT}`);
  const query: ListQuery = {
    page: positiveInteger(params, 'page', 1),
    limit,
    sort: [],
    q: params.get('q'),
    filters: new Map(),
    ranges: [],
    include: new Set(),
  };
  for (const part of (params.get('sort') ?? '').split(',').filter(Boolean)) {
    const descending = part.startsWith('-');
    const field = descending ? part.slice(1) : part;
    if (!spec.sortable.includes(field)) throw validationError('sort', `cannot sort by ${field}`);
    query.sort.push({ field, descending });
  }
  for (const name of params
    .getAll('include')
    .flatMap((v) => v.split(','))
    .filter(Boolean)) {
    if (!spec.includes.includes(name)) throw validationError('include', `cannot include ${name}`);
    query.include.add(name);
  }
  const ranges = new Map<string, { field: string; after: number | null; before: number | null }>();
  for (const [name, value] of params) {
    if (RESERVED.has(name)) continue;
    const range = /^(.+)\.(after|before)$/.exec(name);
    if (range) {
      const field = range[1] ?? '';
      if (!spec.dates.includes(field)) throw validationError(name, `${field} is not a date field`);
      const entry = ranges.get(field) ?? { field, after: null, before: null };
      entry[range[2] === 'after' ? 'after' : 'before'] = parseDate(name, value);
      ranges.set(field, entry);
      continue;
    }
    if (!spec.filters.includes(name)) throw validationError(name, 'unknown filter');
    const values = query.filters.get(name) ?? new Set<string>();
    values.add(value);
    query.filters.set(name, values);
  }
  query.ranges = [...ranges.values()];
  return query;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** Filters, searches, sorts and pages records (already in default order) by a parsed query. */
export function applyListQuery<T extends object>(
  records: readonly T[],
  query: ListQuery,
  spec: ListSpec,
): { items: T[]; pagination: Pagination } {
  const field = (record: T, name: string): unknown => (record as Record<string, unknown>)[name];
  const needle = query.q?.toLowerCase() ?? '';
  let matched = records.filter((record) => {
    for (const [name, values] of query.filters) {
      if (!values.has(String(field(record, name)))) return false;
    }
    for (const range of query.ranges) {
      const raw = field(record, range.field);
      const time = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
      if (Number.isNaN(time)) return false;
      if (range.after !== null && !(time > range.after)) return false;
      if (range.before !== null && !(time < range.before)) return false;
    }
    if (needle !== '') {
      return spec.searchable.some((name) =>
        String(field(record, name) ?? '')
          .toLowerCase()
          .includes(needle),
      );
    }
    return true;
  });
  if (query.sort.length > 0) {
    // Array.prototype.sort is stable, so ties keep the default (id) order.
    matched = [...matched].sort((a, b) => {
      for (const { field: name, descending } of query.sort) {
        const order = compare(field(a, name), field(b, name));
        if (order !== 0) return descending ? -order : order;
      }
      return 0;
    });
  }
  const total = matched.length;
  const start = (query.page - 1) * query.limit;
  return {
    items: matched.slice(start, start + query.limit),
    pagination: {
      page: query.page,
      limit: query.limit,
      total,
      total_pages: Math.ceil(total / query.limit),
      has_more: start + query.limit < total,
    },
  };
}
