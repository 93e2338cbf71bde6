import type { IncomingMessage, ServerResponse } from 'node:http';
import { callerAddress } from '../mock-http/caller';
import { sendJson } from '../mock-http/json-replies';
import { type Intake, type IntakeDeps, type IntakePolicy, receiveRequest } from '../mock-http/request-intake';
import { findRoute, type RouteMatch } from '../mock-http/route-match';
import { ApiError } from './api-error';
import {
  type ApiKeyRecord,
  DEFAULT_PER_DAY,
  DEFAULT_PER_MINUTE,
  hasScope,
  keyIdOf,
  verifyToken,
} from './api-keys';
import type { MockFaults } from './faults';
import { readJsonBody } from './json-body';
import { rateHeaders } from './rate-headers';
import type { RateDecision, RateLimiter } from './rate-limiter';
import type { RosterStore } from './roster-store';
import type { Route } from './route';

export interface PipelineDeps extends IntakeDeps {
  routes: readonly Route[];
  keys: readonly ApiKeyRecord[];
  store: RosterStore;
  faults: MockFaults;
  limiter: RateLimiter;
}

const ANONYMOUS_BUDGET = { perMinute: DEFAULT_PER_MINUTE, perDay: DEFAULT_PER_DAY };

/** Routes are logged by pattern, a wrong method by its path, unknown paths as `unmatched`; keys by id. */
function intakePolicy(routes: readonly Route[]): IntakePolicy<RouteMatch<Route>> {
  return {
    route: (method, path) => {
      const match = findRoute(routes, method, path);
      if (match.kind === 'found') return { match, endpoint: `${method} ${match.route.pattern}` };
      return { match, endpoint: match.kind === 'wrong-method' ? `${method} ${path}` : 'unmatched' };
    },
    keyOf: keyIdOf,
  };
}

/**
 * One request, in the order a real deployment would see it: the transport (drops, hangs, latency,
 * a proxy's 5xx page), then the service (endpoint, key, rate limit, allowlist, plan, scope, handler).
 */
export async function handleRequest(
  deps: PipelineDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const intake = await receiveRequest(deps, intakePolicy(deps.routes), req, res);
  if (intake) await answer(deps, { ...intake, req, res });
}

interface Exchange extends Intake<RouteMatch<Route>> {
  req: IncomingMessage;
  res: ServerResponse;
}

async function answer(deps: PipelineDeps, ex: Exchange): Promise<void> {
  const { faults, now, limiter, store } = deps;
  const key = ex.token === null ? null : verifyToken(ex.token, deps.keys, now());
  const bucket = key ? `key:${key.id}` : `anon:${callerAddress(ex.req)}`;
  const budget = key ?? ANONYMOUS_BUDGET;
  // A forced 429 must not use up budget, so only look at the bucket then.
  const forced = key ? faults.takeForced429() : null;
  let rate: RateDecision = forced ? limiter.peek(bucket, budget) : limiter.take(bucket, budget);
  let retryAfter: number | null = null;
  let status = 200;
  let body: unknown;
  // The service's own clock, as its stamps are: Node's default `Date` would be this machine's.
  const headers: Record<string, string> = {
    'X-Request-Id': ex.requestId,
    Date: new Date(now()).toUTCString(),
  };
  try {
    const { match } = ex;
    if (match.kind === 'none')
      throw new ApiError('not_found', `No such endpoint: ${ex.req.method} ${ex.url.pathname}`);
    if (match.kind === 'wrong-method') {
      headers.Allow = match.allowed.join(', ');
      throw new ApiError(
        'method_not_allowed',
        `${ex.req.method} is not available here; use ${headers.Allow}`,
      );
    }
    const { route, params } = match;
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
    if (faults.takeFailure('service', ex.url.pathname) === 500) throw new Error('injected internal fault');
    await faults.takePathFault(ex.url.pathname);
    const result = await route.handle({
      url: ex.url,
      params,
      key,
      store,
      faults,
      readJson: () => readJsonBody(ex.req),
    });
    status = result.status ?? 200;
    body = result.raw
      ? result.data
      : {
          success: true,
          data: result.data,
          meta: { request_id: ex.requestId, ...(result.pagination ? { pagination: result.pagination } : {}) },
        };
  } catch (error) {
    const failure =
      error instanceof ApiError
        ? error
        : new ApiError('internal', `Internal error; quote request id ${ex.requestId} to support`);
    status = failure.status;
    body = {
      success: false,
      error: {
        code: failure.code,
        message: failure.message,
        ...(failure.details ? { details: failure.details } : {}),
      },
      meta: { request_id: ex.requestId },
    };
  }
  deps.counters.finish(ex.entry, status);
  if (ex.res.destroyed) return;
  sendJson(ex.res, status, body, { ...headers, ...rateHeaders(rate, retryAfter) }, faults.takeMalformed());
}
