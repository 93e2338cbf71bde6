import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tokenOf } from './caller';
import type { FaultSwitches } from './fault-switches';
import { overrideReset, sendCredentialEcho, sendHugeBody } from './hostile-replies';
import { sendGatewayPage } from './json-replies';
import type { MockCounters, RequestLogEntry } from './mock-counters';
import { findRoute, type RouteMatch, type RoutePattern } from './route-match';

export interface IntakeDeps {
  counters: MockCounters;
  faults: FaultSwitches;
  now: () => number;
  /** Waits real time; never resolves once the server closes. */
  sleep(ms: number): Promise<void>;
}

/** How a mock reads a request: its routes, how it logs them, and the key a token names. */
export interface IntakePolicy<R extends RoutePattern> {
  routes: readonly R[];
  /**
   * Whether a known path asked with a method it lacks is logged as `<METHOD> <path>`; else it is
   * `unmatched`, as unknown paths are. A matched route is logged by its pattern.
   */
  logsWrongMethod: boolean;
  /** The key id or prefix the token names (valid or not), or null when it names none. */
  keyOf(token: string): string | null;
}

/** A request that got past the transport, logged and counted, for the mock's service to answer. */
export interface Intake<R extends RoutePattern> {
  method: string;
  url: URL;
  match: RouteMatch<R>;
  token: string | null;
  requestId: string;
  entry: RequestLogEntry;
}

/**
 * The front of every mock, as a real deployment's transport would treat a request: it is given a
 * request id and logged, then the transport faults play (drop, hang, latency, a proxy's 5xx page).
 * Null when a fault used the request up.
 */
export async function receiveRequest<R extends RoutePattern>(
  deps: IntakeDeps,
  policy: IntakePolicy<R>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Intake<R> | null> {
  const { faults, counters } = deps;
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://mock.invalid');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const match = findRoute(policy.routes, method, path);
  const endpoint =
    match.kind === 'found'
      ? `${method} ${match.route.pattern}`
      : match.kind === 'wrong-method' && policy.logsWrongMethod
        ? `${method} ${path}`
        : 'unmatched';
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const entry = counters.begin({
    time: deps.now(),
    method,
    path,
    query: url.search,
    endpoint,
    keyId: null,
    requestId,
  });
  const token = tokenOf(req);
  const key = token === null ? null : policy.keyOf(token);
  if (key !== null) counters.attributeKey(entry, key);

  if (faults.takeDrop()) {
    counters.finish(entry, 0);
    req.socket.destroy();
    return null;
  }
  const hung = faults.waitWhileHung();
  if (hung) await hung;
  if (faults.latencyMs > 0) await deps.sleep(faults.latencyMs);
  const gateway = faults.takeFailure('gateway', path);
  if (gateway === 502 || gateway === 503) {
    counters.finish(entry, gateway);
    sendGatewayPage(res, gateway);
    return null;
  }
  if (faults.takeEcho()) {
    counters.finish(entry, 400);
    sendCredentialEcho(req, res);
    return null;
  }
  const huge = faults.takeHugeBody();
  if (huge !== null) {
    counters.finish(entry, 200);
    sendHugeBody(res, huge);
    return null;
  }
  if (faults.resetOverride !== null) overrideReset(res, faults.resetOverride);
  return { method, url, match, token, requestId, entry };
}
