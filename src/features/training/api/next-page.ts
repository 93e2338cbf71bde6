import type { ApiLayout } from './api-layout';
import { isObject, numberOf, text } from './json-fields';

/**
 * The query for the page after `body`, or `undefined` on the last page. The document does not say
 * how lists page, so the common forms are followed: `next_page`, `has_more` with `page`, a `next`
 * address, or a `next_cursor`.
 */
export function nextPageQuery(
  body: unknown,
  current: Record<string, string>,
  paging: ApiLayout['paging'],
): Record<string, string> | undefined {
  if (!isObject(body)) return undefined;
  const nextPage = numberOf(body, 'next_page', 'nextPage');
  if (nextPage !== undefined) return { ...current, [paging.page]: String(nextPage) };
  if (body.next_page === null || body.nextPage === null) return undefined;
  const cursor = text(body, 'next_cursor', 'nextCursor');
  if (cursor !== undefined) return { ...current, cursor };
  const next = text(body, 'next', 'next_url');
  if (next !== undefined) {
    try {
      const url = new URL(next, 'http://x');
      return { ...current, ...Object.fromEntries(url.searchParams) };
    } catch {
      return undefined;
    }
  }
  if (body.has_more === true) {
    const page = numberOf(body, 'page') ?? Number(current[paging.page] ?? '1');
    return { ...current, [paging.page]: String(page + 1) };
  }
  return undefined;
}
