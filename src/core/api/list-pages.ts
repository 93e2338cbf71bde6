import type { Lane } from '../limiter/lane';
import { hasMorePages } from './envelope';
import { listData } from './parse-records';
import type { RequestExecutor } from './request-executor';

/** Pages followed at most, so a service that always says `has_more` cannot loop us forever. */
export const MAX_PAGES = 100;

export interface ListPagesOptions {
  lane: Lane;
  /** The caller already holds a permit for the first page. */
  permitHeld?: boolean;
  /** Continue a job already started: every page at the front of the lane. */
  front?: boolean;
  /** Pages followed at most (default `MAX_PAGES`). */
  maxPages?: number;
}

/** Reads every page of a list endpoint (`limit=100`, `page=1…` while `has_more`). */
export async function listPages(
  executor: RequestExecutor,
  path: string,
  query: URLSearchParams,
  options: ListPagesOptions,
): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let page = 1; page <= (options.maxPages ?? MAX_PAGES); page++) {
    const pageQuery = new URLSearchParams(query);
    pageQuery.set('limit', '100');
    if (page > 1) pageQuery.set('page', String(page));
    const envelope = await executor.envelope(
      { method: 'GET', path, query: pageQuery },
      {
        lane: options.lane,
        front: page > 1 || options.front === true,
        permitHeld: page === 1 && options.permitHeld === true,
      },
    );
    items.push(...listData(envelope.data, `GET ${path}`, envelope.meta?.request_id ?? null));
    if (!hasMorePages(envelope.meta?.pagination)) break;
  }
  return items;
}
