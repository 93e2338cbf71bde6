import { envelopeSchema, hasMorePages, type Lane, RosterResponseError } from '../../http';
import { listData } from '../../roster/client/parse-records';
import type { QueryValues } from '../../roster/client/roster-api';
import type { MirrorPacer } from './mirror-pacer';

/** Records a page holds at most (the service's maximum `limit`). */
export const PAGE_SIZE = 100;

/** The part of the roster client the mirror reads through: the whole answer, paging included. */
export interface PageSource {
  getRaw(path: string, query?: QueryValues, lane?: Lane): Promise<unknown>;
}

/** One page of a list: its records, how many the list (as asked) holds when the service says, and whether more follow. */
export interface ListPage {
  items: unknown[];
  total: number | undefined;
  more: boolean;
}

/**
 * One list endpoint read by the mirror: every request in `createdAt` order, in the background lane
 * at the mirror's pace, and at most `maxRequests` of them, so a service whose paging is broken
 * cannot keep it reading forever. An empty page that says more follow throws too.
 */
export class PacedList {
  private sent = 0;

  /** `query`: the list's filters and includes, sent with every request. */
  constructor(
    private readonly source: PageSource,
    private readonly pacer: MirrorPacer,
    readonly path: string,
    private readonly query: QueryValues,
    private readonly maxRequests: number,
  ) {}

  /** Requests sent so far. */
  get requests(): number {
    return this.sent;
  }

  /** Page 1 of 100 records unless `extra` says otherwise (it also carries the `createdAt` bounds). */
  async page(extra: QueryValues = {}): Promise<ListPage> {
    const { path } = this;
    if (this.sent >= this.maxRequests)
      throw brokenPaging(`it kept saying more records of GET ${path} follow after ${this.sent} requests`);
    this.sent++;
    const query = { ...this.query, sort: 'createdAt', limit: PAGE_SIZE, page: 1, ...extra };
    const body = await this.pacer.run(() => this.source.getRaw(path, query, 'background'));
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
      throw brokenPaging(`an empty page of GET ${path}${whichPage(extra)} said more follow`);
    return { items, total: meta?.pagination?.total, more };
  }
}

/** Which page an error names: the stamp it was asked after, or its number. */
function whichPage(extra: QueryValues): string {
  const after = extra['createdAt.after'];
  if (typeof after === 'string') return ` after ${after}`;
  return typeof extra.page === 'number' && extra.page > 1 ? ` (page ${extra.page})` : '';
}

/** The read fails: what the service answered cannot be a whole list. */
export function brokenPaging(what: string): RosterResponseError {
  return new RosterResponseError(`The roster service's paging may be broken: ${what}.`, {
    code: 'malformed_response',
    kind: 'outage',
    status: 200,
    requestId: null,
  });
}
