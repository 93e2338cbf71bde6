import type { IncomingMessage, ServerResponse } from 'node:http';
import { callerAddress } from '../mock-http/caller';
import { sendJson } from '../mock-http/json-replies';
import { type IntakeDeps, type IntakePolicy, receiveRequest } from '../mock-http/request-intake';
import { findRoute, type RouteMatch } from '../mock-http/route-match';
import { LearningApiError } from './api-error';
import { hasScope, keyPrefixOf, type LearningKey, verifyToken } from './api-keys';
import type { LearningFaults } from './faults';
import { readJsonBody } from './json-body';
import type { LearningStore } from './learning-store';
import type { MinuteLimiter } from './minute-limiter';
import type { LinkReplyNames, Route } from './route';

export interface PipelineDeps extends IntakeDeps {
  routes: readonly Route[];
  keys: readonly LearningKey[];
  store: LearningStore;
  faults: LearningFaults;
  limiter: MinuteLimiter;
  baseUrl: () => string;
  linkReplyNames: LinkReplyNames;
}

/** Unknown paths and wrong methods are both logged as `unmatched`; keys are named by their prefix. */
function intakePolicy(routes: readonly Route[]): IntakePolicy<RouteMatch<Route>> {
  return {
    route: (method, path) => {
      const match = findRoute(routes, method, path);
      return { match, endpoint: match.kind === 'found' ? `${method} ${match.route.pattern}` : 'unmatched' };
    },
    keyOf: keyPrefixOf,
  };
}

/** The transport first (drop, hang, latency, a proxy's 5xx page), then the service. */
export async function handleRequest(
  deps: PipelineDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const intake = await receiveRequest(deps, intakePolicy(deps.routes), req, res);
  if (!intake) return;
  const { url, match, token, requestId, entry } = intake;
  const headers: Record<string, string> = { 'X-Request-Id': requestId };
  let status: number;
  let body: unknown;
  try {
    ({ status, body } = await serve(deps, { req, url, match, token, headers }));
  } catch (error) {
    const failure =
      error instanceof LearningApiError
        ? error
        : new LearningApiError('internal', `Internal error; quote request id ${requestId} to support`);
    status = failure.status;
    body = {
      error: {
        code: failure.code,
        message: failure.message,
        ...(failure.details ? { details: failure.details } : {}),
      },
    };
  }
  deps.counters.finish(entry, status);
  if (res.destroyed) return;
  if (deps.faults.endlessPages) body = endless(body);
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  sendJson(res, status, body, headers, deps.faults.takeMalformed());
}

interface Exchange {
  req: IncomingMessage;
  url: URL;
  match: RouteMatch<Route>;
  token: string | null;
  headers: Record<string, string>;
}

/** Endpoint (404/405) → key (401) → rate limit (429) → api_access → scope → flags (403) → handler. */
async function serve(deps: PipelineDeps, ex: Exchange): Promise<{ status: number; body: unknown }> {
  const { faults, store } = deps;
  const { match } = ex;
  if (match.kind === 'none') throw new LearningApiError('not_found', `No such endpoint: ${ex.url.pathname}`);
  if (match.kind === 'wrong-method') {
    ex.headers.Allow = match.allowed.join(', ');
    throw new LearningApiError(
      'method_not_allowed',
      `${ex.req.method} is not available here; use ${ex.headers.Allow}`,
    );
  }
  const { route, params } = match;
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
    const decision = deps.limiter.take(key ? `key:${key.prefix}` : `addr:${callerAddress(ex.req)}`, limit);
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
  if (faults.takeFailure('service', ex.url.pathname) === 500) throw new Error('injected internal fault');
  const result = await route.handle({
    url: ex.url,
    params,
    key,
    store,
    baseUrl: deps.baseUrl(),
    pageSize: faults.pageSize,
    linkReplyNames: deps.linkReplyNames,
    now: deps.now,
    readJson: () => readJsonBody(ex.req),
  });
  return { status: result.status ?? 200, body: result.body };
}

/** The endless-pages fault: a paged list always says another page follows. */
function endless(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('has_more' in body)) return body;
  const page = Number((body as { page?: unknown }).page ?? 1);
  return { ...body, has_more: true, next_page: page + 1 };
}
