import { errorFields } from '../mock-http/api-error';
import { type Exchange, foundRoute, type MockApi } from '../mock-http/api-exchange';
import { callerAddress } from '../mock-http/caller';
import type { RateLimiter } from '../mock-http/rate-limiter';
import { LearningApiError, validationError } from './api-error';
import { hasScope, keyPrefixOf, type LearningKey, verifyToken } from './api-keys';
import type { LearningFaults } from './faults';
import type { LearningStore } from './learning-store';
import type { LinkReplyNames, Route, RouteResult } from './route';

export interface LearningApiDeps {
  routes: readonly Route[];
  keys: readonly LearningKey[];
  store: LearningStore;
  faults: LearningFaults;
  limiter: RateLimiter;
  now: () => number;
  baseUrl: () => string;
  linkReplyNames: LinkReplyNames;
}

/**
 * The learning service's API: unknown paths and wrong methods are both logged as `unmatched`, keys
 * by their prefix; failures as `{ error: { code, message, details? } }`, no envelope on success.
 */
export function learningApi(deps: LearningApiDeps): MockApi<Route> {
  const api: MockApi<Route> = {
    routes: deps.routes,
    logsWrongMethod: false,
    keyOf: keyPrefixOf,
    bodyLimit: 100_000,
    invalidBody: validationError,
    error: (code, message) => new LearningApiError(code, message),
    answer: async (exchange) => {
      const result = await serve(api, deps, exchange);
      return { status: result.status ?? 200, body: result.body };
    },
    failureBody: (error) => ({ error: errorFields(error) }),
    finalBody: (body) => (deps.faults.endlessPages ? endless(body) : body),
  };
  return api;
}

/** Endpoint (404/405) → key (401) → rate limit (429) → api_access → scope → flags (403) → handler. */
async function serve(api: MockApi<Route>, deps: LearningApiDeps, ex: Exchange<Route>): Promise<RouteResult> {
  const { faults, store } = deps;
  const { route, params } = foundRoute(api, ex, ex.url.pathname);
  const key = ex.token === null ? null : verifyToken(ex.token, deps.keys);
  if (route.access.kind !== 'public' && !key) {
    throw new LearningApiError(
      'unauthorized',
      ex.token === null
        ? 'No API key sent (Authorization: Bearer <key>)'
        : 'The API key is invalid or revoked',
    );
  }
  const forced = key ? faults.takeForced429() : null;
  if (forced) {
    if (forced.retryAfter !== null) ex.headers['Retry-After'] = String(forced.retryAfter);
    throw new LearningApiError('rate_limited', 'Too many requests');
  }
  const limit = faults.perMinuteLimit;
  if (limit !== null && route.pattern !== '/api/openapi.json') {
    const bucket = key ? `key:${key.prefix}` : `addr:${callerAddress(ex.req)}`;
    // A calendar-minute window, no day limit; no X-RateLimit-* headers, only Retry-After.
    const decision = deps.limiter.take(bucket, { perMinute: limit, perDay: Number.POSITIVE_INFINITY });
    if (!decision.allowed) {
      ex.headers['Retry-After'] = String(decision.retryAfter);
      throw new LearningApiError('rate_limited', `Too many requests: ${limit} per minute`);
    }
  }
  if (route.access.kind === 'scope' && key) {
    const { flags } = store.org;
    if (!flags.api_access) {
      throw new LearningApiError('feature_disabled', 'The api_access feature is off for this organization', {
        flag: 'api_access',
      });
    }
    if (!hasScope(key, route.access.scope)) {
      throw new LearningApiError(
        'insufficient_scope',
        `This endpoint requires the ${route.access.scope} scope`,
        {
          scope: route.access.scope,
        },
      );
    }
    for (const flag of route.access.flags) {
      if (!flags[flag]) {
        throw new LearningApiError('feature_disabled', `The ${flag} feature is off for this organization`, {
          flag,
        });
      }
    }
  }
  await faults.atService(ex.url.pathname);
  return route.handle({
    url: ex.url,
    params,
    key,
    store,
    baseUrl: deps.baseUrl(),
    pageSize: faults.pageSize,
    linkReplyNames: deps.linkReplyNames,
    now: deps.now,
    readJson: ex.readJson,
  });
}

/** The endless-pages fault: a paged list always says another page follows. */
function endless(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('has_more' in body)) return body;
  const page = Number((body as { page?: unknown }).page ?? 1);
  return { ...body, has_more: true, next_page: page + 1 };
}
