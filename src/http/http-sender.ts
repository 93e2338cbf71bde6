import type { Dispatcher } from 'undici';
import { errorMessage } from '../platform/error-message';
import type { Clock } from '../platform/ports';
import { DEFAULT_MAX_BODY_BYTES, ExchangeFailure, exchange } from './http-exchange';
import { keepAlivePool } from './keep-alive-pool';
import type { HttpAnswer } from './read-response';
import { type RosterApiError, RosterNetworkError, RosterResponseError } from './roster-api-error';
import { HeldBeforeSending } from './send-gate';

export interface HttpRequest {
  method: 'GET' | 'PATCH';
  /** Path under the base address, starting with `/`, e.g. `/api/v1/members`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
}

export interface HttpSenderOptions {
  baseUrl: string;
  /** The setting the address was read from, named when it cannot be reached (default `api.baseUrl`). */
  addressSetting?: string | undefined;
  apiKey: string;
  userAgent: string;
  /** The whole request's time limit: connect, headers and body together. */
  timeoutMs: number;
  clock: Clock;
  /** An answer larger than this is not read (default 4 MB). */
  maxBodyBytes?: number | undefined;
  /** Defaults to a keep-alive Pool on the base address. */
  dispatcher?: Dispatcher | undefined;
}

/** Sends one request and reads the whole answer; knows nothing of limits, retries or the envelope. */
export interface HttpSender {
  /**
   * `held` says when the request may not leave (a 429 pause, a refused key): asked again right
   * before its bytes are written; a request held then rejects with `HeldBeforeSending`, unsent.
   */
  send(request: HttpRequest, held?: () => boolean): Promise<HttpAnswer>;
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
  const dispatcher = options.dispatcher ?? keepAlivePool(origin, 8);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { apiKey, clock, timeoutMs } = options;
  const authorization = `Bearer ${apiKey}`;
  const redact = (text: string) => (apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);

  async function send(request: HttpRequest, held?: () => boolean): Promise<HttpAnswer> {
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
    try {
      return await exchange(
        dispatcher,
        {
          origin,
          path,
          method: request.method,
          headers,
          body: body ?? null,
          resendable: request.method === 'GET',
          held,
        },
        { clock, timeoutMs, maxBodyBytes },
      );
    } catch (error) {
      if (error instanceof HeldBeforeSending) throw error;
      throw failure(request, error);
    }
  }

  function failure(request: HttpRequest, error: unknown): RosterApiError {
    const what = `${request.method} ${request.path}`;
    const reason = error instanceof ExchangeFailure ? error.reason : 'network';
    if (error instanceof ExchangeFailure && error.reason === 'too_large') {
      return new RosterResponseError(
        `The roster service answered ${what} with more than ${megabytes(maxBodyBytes)}; the resource stopped reading it. A proxy in front of the service may be sending something else.`,
        { code: 'malformed_response', kind: 'outage', status: error.status, requestId: null },
      );
    }
    if (reason === 'timeout') {
      return new RosterNetworkError(
        `The roster service did not answer ${what} within ${timeoutMs} ms (api.timeoutMs). It may be overloaded or unreachable.`,
        { code: 'timeout', kind: 'outage', status: null, requestId: null },
      );
    }
    const detail = error instanceof ExchangeFailure ? error.detail : errorMessage(error);
    return new RosterNetworkError(
      redact(
        `Could not reach the roster service at ${origin} for ${what} (${detail}). Check the server's internet access and ${options.addressSetting ?? 'api.baseUrl'}.`,
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

/** `4 MB`, `512 kB`: a size for messages. */
export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
