import { hasMorePages, type Lane, type RequestExecutor } from '../../http';
import { listData } from './parse-records';

/** Pages followed at most by default, so a service that always says `has_more` cannot loop us forever. */
export const MAX_PAGES = 100;
const PAGE_SIZE = 100;

export interface ListPagesOptions {
  lane: Lane;
  /** The caller already holds a permit for the first page. */
  permitHeld?: boolean;
  /** Continue a job already started: every page at the front of the lane. */
  front?: boolean;
  /**
   * The most records the list can hold for this query (e.g. the licenses asked for): no page past
   * the ones they fill (at the page size the service reports) is asked for, whatever `has_more`
   * says; 100 licenses take one page.
   */
  atMost?: number;
  /** Pages followed at most (default {@link MAX_PAGES}); the cut is reported once per list. */
  maxPages?: number;
  /** The caller reads the rest later (e.g. a feed after a cursor): reaching `maxPages` is no fault. */
  quietCut?: boolean;
}

/** Reads every page of a list endpoint (`limit=100`, `page=1…` while `has_more`). */
export async function listPages(
  executor: RequestExecutor,
  path: string,
  query: URLSearchParams,
  options: ListPagesOptions,
): Promise<unknown[]> {
  const items: unknown[] = [];
  const { atMost } = options;
  let needed = atMost === undefined ? Number.POSITIVE_INFINITY : Math.ceil(atMost / PAGE_SIZE);
  for (let page = 1; ; page++) {
    const pageQuery = new URLSearchParams(query);
    pageQuery.set('limit', String(PAGE_SIZE));
    if (page > 1) pageQuery.set('page', String(page));
    const envelope = await executor.envelope(
      { method: 'GET', path, query: pageQuery },
      {
        lane: options.lane,
        front: page > 1 || options.front === true,
        permitHeld: page === 1 && options.permitHeld === true,
      },
    );
    const data = listData(envelope.data, `GET ${path}`, envelope.meta?.request_id ?? null);
    items.push(...data);
    // An empty page ends a list whatever it claims: nothing can follow it.
    if (!hasMorePages(envelope.meta?.pagination) || data.length === 0) break;
    if (atMost !== undefined) {
      if (items.length >= atMost) break;
      // A service that pages smaller than asked needs more pages for the same records.
      const size = envelope.meta?.pagination?.limit ?? (page === 1 ? data.length : PAGE_SIZE);
      needed = Math.ceil(atMost / Math.max(1, Math.min(PAGE_SIZE, size)));
    }
    const maxPages = Math.max(1, Math.min(needed, options.maxPages ?? MAX_PAGES));
    if (page >= maxPages) {
      if (page < needed && options.quietCut !== true)
        executor.warnOnce(
          `pages ${path}`,
          `The roster service keeps saying more pages of GET ${path} follow; the resource stopped after ${page} pages (${items.length} records). The service's paging may be broken.`,
        );
      break;
    }
  }
  return items;
}
