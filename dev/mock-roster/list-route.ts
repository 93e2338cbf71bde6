import { ApiError } from './api-error';
import { applyListQuery, type ListQuery, type ListSpec, parseListQuery } from './list-query';
import type { RouteContext, RouteResult } from './route';

/** A list handler: parse the conventions, filter the records, then shape each one on the page. */
export function listRoute<T extends object>(
  records: (ctx: RouteContext) => readonly T[],
  spec: ListSpec,
  view: (record: T, ctx: RouteContext, query: ListQuery) => unknown = (r) => r,
): (ctx: RouteContext) => RouteResult {
  return (ctx) => {
    const query = parseListQuery(ctx.url.searchParams, spec);
    ctx.store.beforeList?.({ path: ctx.url.pathname, query: ctx.url.searchParams });
    const { items, pagination } = applyListQuery(records(ctx), query, spec);
    // The endless-pages fault: every page claims another follows.
    const paging = ctx.faults.endlessPages
      ? { ...pagination, has_more: true, total_pages: pagination.page + 1 }
      : pagination;
    return { data: items.map((item) => view(item, ctx, query)), pagination: paging };
  };
}

/** A single-record handler by `:id`; not_found when the community has no such record. */
export function recordRoute<T extends { id: string }>(
  resource: string,
  records: (ctx: RouteContext) => readonly T[],
  view: (record: T, ctx: RouteContext) => unknown = (r) => r,
): (ctx: RouteContext) => RouteResult {
  return (ctx) => {
    const record = records(ctx).find((r) => r.id === ctx.params.id);
    if (!record) throw new ApiError('not_found', `No ${resource} with id ${ctx.params.id}`);
    return { data: view(record, ctx) };
  };
}
