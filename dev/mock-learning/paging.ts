import { validationError } from './api-error';

export const MAX_PAGE_LIMIT = 500;

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  has_more: boolean;
  next_page: number | null;
}

function positiveInt(url: URL, name: string, max: number): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null) return null;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max)
    throw validationError(name, `must be an integer 1–${max}`);
  return value;
}

/** `?page=&limit=`; without `limit` the page size is `defaultSize` (null = everything in one page). */
export function paginate<T>(url: URL, items: readonly T[], defaultSize: number | null): Page<T> {
  const page = positiveInt(url, 'page', Number.MAX_SAFE_INTEGER) ?? 1;
  const limit = positiveInt(url, 'limit', MAX_PAGE_LIMIT) ?? defaultSize ?? Math.max(items.length, 1);
  const start = (page - 1) * limit;
  const has_more = start + limit < items.length;
  return {
    items: items.slice(start, start + limit),
    page,
    limit,
    has_more,
    next_page: has_more ? page + 1 : null,
  };
}

/** OpenAPI parameters and reply properties of a paged list. */
export const PAGING_PARAMETERS = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT },
    description: 'Page size; without it the server may still cut the list: follow next_page while has_more',
  },
];

export const PAGING_PROPERTIES = {
  page: { type: 'integer' },
  limit: { type: 'integer' },
  has_more: { type: 'boolean' },
  next_page: { type: ['integer', 'null'] },
};
