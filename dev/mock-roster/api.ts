import { errorFields } from '../mock-http/api-error';
import { type Exchange, foundRoute, type MockApi } from '../mock-http/api-exchange';
import { callerAddress } from '../mock-http/caller';
import { type RateDecision, type RateLimiter, rateHeaders } from '../mock-http/rate-limiter';
import { ApiError, validationError } from './api-error';
import {
  type ApiKeyRecord,
  DEFAULT_PER_DAY,
  DEFAULT_PER_MINUTE,
  hasScope,
  keyIdOf,
  verifyToken,
} from './api-keys';
import type { MockFaults } from './faults';
import type { RosterStore } from './roster-store';
import type { Route } from './route';

export interface RosterApiDeps {
  routes: readonly Route[];
  keys: readonly ApiKeyRecord[];
  store: RosterStore;
  faults: MockFaults;
  limiter: RateLimiter;
  now: () => number;
}

const ANONYMOUS_BUDGET = { perMinute: DEFAULT_PER_MINUTE, perDay: DEFAULT_PER_DAY };

/**
 * The roster service's API: routes logged by pattern, a wrong method by its path, keys by id; the
 * envelope on every answer, with the rate-limit headers.
 */
export function rosterApi(deps: RosterApiDeps): MockApi<Route> {
  const api: MockApi<Route> = {
    routes: deps.routes,
    logsWrongMethod: true,
    keyOf: keyIdOf,
    bodyLimit: 1_000_000,
    invalidBody: validationError,
    error: (code, message) => new ApiError(code, message),
    answer: (exchange) => answer(api, deps, exchange),
    failureBody: (error, requestId) => ({
      success: false,
      error: errorFields(error),
      meta: { request_id: requestId },
    }),
  };
  return api;
}

/**
 * In the order the service checks a request: key, rate limit (every request from a valid key
 * counts, unknown endpoints too), endpoint, allowlist, plan, scope, the service's own faults,
 * the handler.
 */
async function answer(
  api: MockApi<Route>,
  deps: RosterApiDeps,
  ex: Exchange<Route>,
): Promise<{ status: number; body: unknown }> {
  const { faults, now, limiter, store } = deps;
  const key = ex.token === null ? null : verifyToken(ex.token, deps.keys, now());
  const bucket = key ? `key:${key.id}` : `anon:${callerAddress(ex.req)}`;
  const budget = key ?? ANONYMOUS_BUDGET;
  // A forced 429 must not use up budget, so only look at the bucket then.
  const forced = key ? faults.takeForced429() : null;
  let rate: RateDecision = forced ? limiter.peek(bucket, budget) : limiter.take(bucket, budget);
  let retryAfter: number | null = null;
  // The service's own clock, as its stamps are: Node's default `Date` would be this machine's.
  ex.headers.Date = new Date(now()).toUTCString();
  try {
    const { route, params } = foundRoute(api, ex, `${ex.req.method} ${ex.url.pathname}`);
    const keyed = route.access.kind !== 'public';
    if (keyed && !key) {
      throw new ApiError(
        'invalid_api_key',
        ex.token === null ? 'No API key sent' : 'The API key is invalid, revoked or expired',
      );
    }
    if (forced) {
      rate = { ...rate, allowed: false, remaining: 0, retryAfter: forced.retryAfter };
    }
    if (!rate.allowed) {
      retryAfter = rate.retryAfter;
      throw new ApiError('rate_limited', 'Too many requests for this API key');
    }
    if (keyed && key) {
      const allow = key.ipAllowlist;
      if (faults.ipRefused || (allow !== null && !allow.includes(callerAddress(ex.req)))) {
        throw new ApiError(
          'ip_not_allowed',
          `Address ${callerAddress(ex.req)} is not on this key's allowlist`,
        );
      }
      if (!store.data.community.planActive) {
        throw new ApiError('plan_required', 'The API needs an active Professional plan');
      }
      if (route.access.kind === 'scope' && !route.access.anyOf.some((s) => hasScope(key, s))) {
        const [first, ...others] = route.access.anyOf;
        const also = others.length > 0 ? ` (or ${others.join(', ')})` : '';
        throw new ApiError('insufficient_scope', `This endpoint requires the ${first} scope${also}`);
      }
    }
    await faults.atService(ex.url.pathname);
    const result = await route.handle({ url: ex.url, params, key, store, faults, readJson: ex.readJson });
    return {
      status: result.status ?? 200,
      body: result.raw
        ? result.data
        : {
            success: true,
            data: result.data,
            meta: {
              request_id: ex.requestId,
              ...(result.pagination ? { pagination: result.pagination } : {}),
            },
          },
    };
  } finally {
    // Success or failure, the answer says where the key's budget stands.
    Object.assign(ex.headers, rateHeaders(rate, retryAfter));
  }
}
