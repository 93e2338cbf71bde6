import { type Dispatcher, Pool } from 'undici';
import type { Clock } from '../ports';
import type { HttpAnswer } from './read-response';
import { RosterNetworkError } from './roster-api-error';

export interface HttpRequest {
  method: 'GET' | 'PATCH';
  /** Path under the base address, starting with `/`, e.g. `/api/v1/members`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
}

export interface HttpSenderOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  /** The whole request's time limit: connect, headers and body together. */
  timeoutMs: number;
  clock: Clock;
  /** Defaults to a keep-alive Pool on the base address. */
  dispatcher?: Dispatcher | undefined;
}

/** Sends one request and reads the whole answer; knows nothing of limits, retries or the envelope. */
export interface HttpSender {
  send(request: HttpRequest): Promise<HttpAnswer>;
  /** Removes the key from any text (defence in depth for messages built from answers). */
  redact(text: string): string;
  close(): Promise<void>;
}

/**
 * The key lives only in this closure: it is never a property of an object that could be logged,
 * inspected or serialised.
 */
export function createHttpSender(options: HttpSenderOptions): HttpSender {
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Pool(origin, {
      connections: 8,
      keepAliveTimeout: 30_000,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  const { apiKey, clock, timeoutMs } = options;
  const authorization = `Bearer ${apiKey}`;
  const redact = (text: string) => (apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);

  async function send(request: HttpRequest): Promise<HttpAnswer> {
    const query = request.query?.toString() ?? '';
    const path = `${basePath}${request.path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = {
      authorization,
      'user-agent': options.userAgent,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const controller = new AbortController();
    let timedOut = false;
    let onTimeout: () => void = () => {};
    const expired = new Promise<never>((_, reject) => {
      onTimeout = () => reject(new Error('timeout'));
    });
    expired.catch(() => {});
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
      onTimeout();
    }, timeoutMs);
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await Promise.race([
        dispatcher.request({
          origin,
          path,
          method: request.method,
          headers,
          body: body ?? null,
          signal: controller.signal,
        }),
        expired,
      ]);
      const text = await Promise.race([response.body.text(), expired]);
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      response?.body.destroy();
      throw failure(request, timedOut, error);
    } finally {
      clock.clearTimeout(timer);
    }
  }

  function failure(request: HttpRequest, timedOut: boolean, error: unknown): RosterNetworkError {
    const what = `${request.method} ${request.path}`;
    if (timedOut) {
      return new RosterNetworkError(
        `The roster service did not answer ${what} within ${timeoutMs} ms (api.timeoutMs). It may be overloaded or unreachable.`,
        { code: 'timeout', kind: 'outage', status: null, requestId: null },
      );
    }
    const cause = error as { code?: unknown; message?: unknown };
    const reason = typeof cause.code === 'string' ? cause.code : String(cause.message ?? error);
    return new RosterNetworkError(
      redact(
        `Could not reach the roster service at ${origin} for ${what} (${reason}). Check the server's internet access and api.baseUrl.`,
      ),
      { code: 'network', kind: 'outage', status: null, requestId: null },
    );
  }

  return {
    send,
    redact,
    close: async () => {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
