import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockCounters } from '../mock-roster/counters';
import { callerAddress, sendGatewayPage, sendJson, tokenOf } from '../mock-roster/http-io';
import { matchPattern } from '../mock-roster/route';
import { LearningApiError } from './api-error';
import { hasScope, keyPrefixOf, type LearningKey, verifyToken } from './api-keys';
import type { LearningFaults } from './faults';
import { readJsonBody } from './json-body';
import type { LearningStore } from './learning-store';
import type { MinuteLimiter } from './minute-limiter';
import type { Route } from './route';

export interface PipelineDeps {
  routes: readonly Route[];
  keys: readonly LearningKey[];
  store: LearningStore;
  faults: LearningFaults;
  counters: MockCounters;
  limiter: MinuteLimiter;
  now: () => number;
  baseUrl: () => string;
  /** Waits real time; never resolves once the server closes. */
  sleep(ms: number): Promise<void>;
}

type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

function findRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}

/** The transport first (drop, hang, latency, a proxy's 5xx page), then the service. */
export async function handleRequest(
  deps: PipelineDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { faults, counters } = deps;
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://mock.invalid');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const match = findRoute(deps.routes, method, path);
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const entry = counters.begin({
    time: deps.now(),
    method,
    path,
    query: url.search,
    endpoint: match.kind === 'found' ? `${method} ${match.route.pattern}` : 'unmatched',
    keyId: null,
    requestId,
  });
  const token = tokenOf(req);
  const prefix = token === null ? null : keyPrefixOf(token);
  if (prefix !== null) counters.attributeKey(entry, prefix);

  if (faults.takeDrop()) {
    counters.finish(entry, 0);
    req.socket.destroy();
    return;
  }
  const hung = faults.waitWhileHung();
  if (hung) await hung;
  if (faults.latencyMs > 0) await deps.sleep(faults.latencyMs);
  const gateway = faults.takeFailure('gateway');
  if (gateway === 502 || gateway === 503) {
    counters.finish(entry, gateway);
    sendGatewayPage(res, gateway);
    return;
  }
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
  counters.finish(entry, status);
  if (res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  sendJson(res, status, body, headers, faults.takeMalformed());
}

interface Exchange {
  req: IncomingMessage;
  url: URL;
  match: RouteMatch;
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
  if (faults.takeFailure('service') === 500) throw new Error('injected internal fault');
  const result = await route.handle({
    url: ex.url,
    params,
    key,
    store,
    baseUrl: deps.baseUrl(),
    pageSize: faults.pageSize,
    now: deps.now,
    readJson: () => readJsonBody(ex.req),
  });
  return { status: result.status ?? 200, body: result.body };
}
