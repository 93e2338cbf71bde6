import { envelopeSchema, hasMorePages } from '../api/envelope';
import { listData } from '../api/parse-records';
import type { QueryValues } from '../api/roster-api';
import { RosterResponseError } from '../api/roster-api-error';
import type { Lane } from '../limiter/lane';
import type { MirrorPacer } from './mirror-pacer';

const PAGE_SIZE = 100;

/** The part of the roster client the mirror reads through: the whole answer, paging included. */
export interface PageSource {
  getRaw(path: string, query?: QueryValues, lane?: Lane): Promise<unknown>;
}

/** One page of a list: its records, and how many the whole list holds when the service says. */
export interface ListPage {
  items: unknown[];
  total: number | undefined;
}

/**
 * Every page of a list endpoint (`limit=100`, `page=1…` while the service says more follow), each
 * request in the background lane at the mirror's pace. An empty page that says more follow throws,
 * and so does reading past `maxPages`, so a service whose paging is broken cannot keep it reading forever.
 */
export async function* pacedPages(
  source: PageSource,
  pacer: MirrorPacer,
  path: string,
  query: QueryValues,
  maxPages: number,
): AsyncGenerator<ListPage> {
  for (let page = 1; page <= maxPages; page++) {
    const body = await pacer.run(() =>
      source.getRaw(path, { ...query, limit: PAGE_SIZE, page }, 'background'),
    );
    const parsed = envelopeSchema.safeParse(body);
    if (!parsed.success) {
      throw new RosterResponseError(
        `The roster service answered GET ${path} with JSON that is not the API's envelope.`,
        { code: 'malformed_response', kind: 'outage', status: 200, requestId: null },
      );
    }
    const { data, meta } = parsed.data;
    const items = listData(data, `GET ${path}`, meta?.request_id ?? null);
    const more = hasMorePages(meta?.pagination);
    // A list cut short would hold members without some of their departments: the read fails, and
    // what the mirror holds stays until one completes.
    if (items.length === 0 && more)
      throw brokenPaging(`an empty page ${page} of GET ${path} said more follow`);
    yield { items, total: meta?.pagination?.total };
    if (items.length === 0 || !more) return;
  }
  throw brokenPaging(`it kept saying more pages of GET ${path} follow after ${maxPages} pages`);
}

function brokenPaging(what: string): RosterResponseError {
  return new RosterResponseError(`The roster service's paging may be broken: ${what}.`, {
    code: 'malformed_response',
    kind: 'outage',
    status: 200,
    requestId: null,
  });
}
