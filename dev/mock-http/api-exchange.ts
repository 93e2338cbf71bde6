import type { IncomingMessage, ServerResponse } from 'node:http';
import { MockApiError } from './api-error';
import { type InvalidBody, readJsonBody } from './json-body';
import { sendJson } from './json-replies';
import { type Intake, type IntakeDeps, type IntakePolicy, receiveRequest } from './request-intake';
import type { RoutePattern } from './route-match';

/** A request for the mock's API to answer, once the transport let it through. */
export interface Exchange<R extends RoutePattern> extends Intake<R> {
  req: IncomingMessage;
  /** Headers the answer carries, success or failure; the API adds its own (`Allow`, `Retry-After`…). */
  headers: Record<string, string>;
  /** The JSON body, at most the API's `bodyLimit`; rejects with its validation error. */
  readJson(): Promise<unknown>;
}

/** What the API answers: a status and a JSON body (none for a 204). */
export interface Answer {
  status: number;
  body?: unknown;
}

/** The codes every mock's API has, for the failures the shared mechanism answers. */
export type SharedErrorCode = 'not_found' | 'method_not_allowed' | 'internal';

/** A mock's own API on the shared HTTP mechanism: its routes, keys, errors and envelope. */
export interface MockApi<R extends RoutePattern> extends IntakePolicy<R> {
  /** The largest JSON body a route reads, and the validation error for a body it cannot use. */
  bodyLimit: number;
  invalidBody: InvalidBody;
  error(code: SharedErrorCode, message: string): MockApiError;
  /** Answers the request; throws a `MockApiError` to fail it (anything else is answered as `internal`). */
  answer(exchange: Exchange<R>): Promise<Answer>;
  /** The body of a failure: the API's envelope around `errorFields(error)`. */
  failureBody(error: MockApiError, requestId: string): unknown;
  /** The body as it leaves, e.g. a list claiming another page (the endless-pages fault). */
  finalBody?(body: unknown): unknown;
}

/**
 * One request: the transport (log, drops, hangs, latency, a proxy's pages), then the mock's API,
 * its failures turned into its own envelope, the answer counted, the JSON written (or cut in half
 * by the malformed-JSON fault).
 */
export async function serveApi<R extends RoutePattern>(
  deps: IntakeDeps,
  api: MockApi<R>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const intake = await receiveRequest(deps, api, req, res);
  if (!intake) return;
  const exchange: Exchange<R> = {
    ...intake,
    req,
    headers: { 'X-Request-Id': intake.requestId },
    readJson: () => readJsonBody(req, api.bodyLimit, api.invalidBody),
  };
  let answer: Answer;
  try {
    answer = await api.answer(exchange);
  } catch (error) {
    const failure =
      error instanceof MockApiError
        ? error
        : api.error('internal', `Internal error; quote request id ${intake.requestId} to support`);
    answer = { status: failure.status, body: api.failureBody(failure, intake.requestId) };
  }
  deps.counters.finish(intake.entry, answer.status);
  if (res.destroyed) return;
  const body = api.finalBody ? api.finalBody(answer.body) : answer.body;
  if (body === undefined) {
    res.writeHead(answer.status, exchange.headers);
    res.end();
    return;
  }
  sendJson(res, answer.status, body, exchange.headers, deps.faults.takeMalformed());
}

/**
 * The route the request found; else the API's not_found (`missing` names what was asked for), or
 * method_not_allowed with `Allow` set to the methods the path takes.
 */
export function foundRoute<R extends RoutePattern>(
  api: MockApi<R>,
  exchange: Exchange<R>,
  missing: string,
): { route: R; params: Record<string, string> } {
  const { match } = exchange;
  if (match.kind === 'none') throw api.error('not_found', `No such endpoint: ${missing}`);
  if (match.kind === 'wrong-method') {
    exchange.headers.Allow = match.allowed.join(', ');
    throw api.error(
      'method_not_allowed',
      `${exchange.req.method} is not available here; use ${exchange.headers.Allow}`,
    );
  }
  return match;
}
