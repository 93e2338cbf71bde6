import { type Dispatcher, MockAgent } from 'undici';
import type { Logger } from '../../../src/platform/ports';
import {
  createRosterApi,
  type RosterApi,
  type RosterApiOptions,
} from '../../../src/roster/client/roster-api';
import { FakeClock } from '../../http/limiter/fake-clock';

export const ORIGIN = 'https://roster.test';
export const API_KEY = 'rk_live42_Sup3rS3cretValue9';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string | undefined;
  at: number;
}

export interface FakeReply {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON of `body`. */
  text?: string;
  headers?: Record<string, string>;
}

export type Handler = (request: FakeRequest) => FakeReply;

/** A MockAgent whose every request goes through `handler`; requests are recorded with fake time. */
export function fakeRoster(clock: FakeClock, handler: Handler) {
  return fakeOrigin(ORIGIN, clock, handler, 'null');
}

/**
 * A MockAgent answering every request to `origin` through `handler`, recording requests with fake
 * time; a reply with neither `text` nor `body` sends `emptyBody`.
 */
export function fakeOrigin(origin: string, clock: FakeClock, handler: Handler, emptyBody: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const requests: FakeRequest[] = [];
  agent
    .get(origin)
    .intercept({ path: () => true, method: () => true })
    .reply((options) => {
      const url = new URL(options.path, origin);
      const headers: Record<string, string> = {};
      const raw = options.headers;
      if (raw) for (const [name, value] of Object.entries(raw)) headers[name.toLowerCase()] = String(value);
      const request: FakeRequest = {
        method: options.method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        body: typeof options.body === 'string' ? options.body : undefined,
        at: clock.now(),
      };
      requests.push(request);
      const reply = handler(request);
      const data = reply.text ?? (reply.body === undefined ? emptyBody : JSON.stringify(reply.body));
      return {
        statusCode: reply.status ?? 200,
        data,
        responseOptions: { headers: { 'content-type': 'application/json', ...reply.headers } },
      };
    })
    .persist();
  return { agent, requests };
}

let nextId = 1;

/** A success envelope. */
export function ok(
  data: unknown,
  extra: { pagination?: object; headers?: Record<string, string> } = {},
): FakeReply {
  const meta: Record<string, unknown> = { request_id: `req_${nextId++}` };
  if (extra.pagination) meta.pagination = extra.pagination;
  return { status: 200, body: { success: true, data, meta }, headers: extra.headers ?? {} };
}

/** A failure envelope. */
export function fail(
  status: number,
  code: string,
  message = '',
  headers: Record<string, string> = {},
): FakeReply {
  return {
    status,
    body: { success: false, error: { code, message }, meta: { request_id: `req_${nextId++}` } },
    headers,
  };
}

export function recordingLogger() {
  const lines: Array<{ level: keyof Logger; message: string }> = [];
  const logger: Logger = {
    error: (message) => lines.push({ level: 'error', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    info: (message) => lines.push({ level: 'info', message }),
    debug: (message) => lines.push({ level: 'debug', message }),
  };
  return { logger, lines };
}

/** A client on a fake clock over `dispatcher`, with test-friendly defaults. */
export function testClient(
  clock: FakeClock,
  dispatcher: Dispatcher,
  overrides: Partial<RosterApiOptions> = {},
): { api: RosterApi; lines: ReturnType<typeof recordingLogger>['lines'] } {
  const { logger, lines } = recordingLogger();
  const api = createRosterApi({
    baseUrl: ORIGIN,
    apiKey: API_KEY,
    timeoutMs: 5000,
    perMinute: 120,
    perDay: 25_000,
    userAgent: 'roster-fivem/1.2.3',
    clock,
    logger,
    random: () => 0.5,
    dispatcher,
    ...overrides,
  });
  return { api, lines };
}

/** `license:` followed by 40 hex digits derived from `n`. */
export function license(n: number): string {
  return `license:${n.toString(16).padStart(40, '0')}`;
}

export { FakeClock };

/** Advances fake time in steps until `promise` settles; returns its outcome without throwing. */
export async function outcome<T>(
  clock: FakeClock,
  promise: Promise<T>,
  stepMs = 1000,
  maxMs = 600_000,
): Promise<{ value?: T; error?: unknown }> {
  let result: { value?: T; error?: unknown } | undefined;
  promise.then(
    (value) => {
      result = { value };
    },
    (error: unknown) => {
      result = { error };
    },
  );
  for (let elapsed = 0; result === undefined && elapsed <= maxMs; elapsed += stepMs)
    await clock.advance(stepMs);
  if (result === undefined) throw new Error(`still pending after ${maxMs} ms of fake time`);
  return result;
}
