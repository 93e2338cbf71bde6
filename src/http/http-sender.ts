import type { Dispatcher } from 'undici';
import { errorMessage } from '../platform/error-message';
import type { Clock } from '../platform/ports';
import { DEFAULT_MAX_BODY_BYTES, ExchangeFailure, exchange } from './http-exchange';
import { keepAlivePool } from './keep-alive-pool';
import type { HttpAnswer } from './read-response';
import { type RosterApiError, RosterNetworkError, RosterResponseError } from './roster-api-error';
import { HeldBeforeSending } from './send-gate';

export interface HttpRequest {
  method: 'GET' | 'PATCH' | 'POST' | 'DELETE';
  /** Path under the base address, starting with `/`, e.g. `/api/v1/members`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  /**
   * Safe to send a second time when a pooled socket turns out closed before any answer came
   * (default: reads only).
   */
  resendable?: boolean;
}

/** Why an attempt got no answer that could be read, for the service's client to word. */
export interface SendFailure {
  /** `METHOD /path`. */
  request: string;
  reason: 'too_large' | 'timeout' | 'network';
  /** For `network`: the socket error's code or message. */
  detail: string;
  /** For `too_large`: the answer's status. */
  status: number | null;
  origin: string;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Cuts the key out of a message that quotes something from outside. */
  redact(text: string): string;
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
  /** The error for an attempt that got no readable answer; by default the roster service's wording. */
  failure?: ((failure: SendFailure) => Error) | undefined;
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
          resendable: request.resendable ?? request.method === 'GET',
          held,
        },
        { clock, timeoutMs, maxBodyBytes },
      );
    } catch (error) {
      if (error instanceof HeldBeforeSending) throw error;
      throw failure(request, error);
    }
  }

  function failure(request: HttpRequest, error: unknown): Error {
    const facts: SendFailure = {
      request: `${request.method} ${request.path}`,
      reason: error instanceof ExchangeFailure ? error.reason : 'network',
      detail: error instanceof ExchangeFailure ? error.detail : errorMessage(error),
      status: error instanceof ExchangeFailure ? error.status : null,
      origin,
      timeoutMs,
      maxBodyBytes,
      redact,
    };
    return options.failure ? options.failure(facts) : rosterFailure(facts, options.addressSetting);
  }

  return {
    send,
    redact,
    close: async () => {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}

/** The roster service's wording of an attempt that got no readable answer. */
function rosterFailure(facts: SendFailure, addressSetting = 'api.baseUrl'): RosterApiError {
  const { request: what, reason } = facts;
  if (reason === 'too_large') {
    return new RosterResponseError(
      `The roster service answered ${what} with more than ${megabytes(facts.maxBodyBytes)}; the resource stopped reading it. A proxy in front of the service may be sending something else.`,
      { code: 'malformed_response', kind: 'outage', status: facts.status, requestId: null },
    );
  }
  if (reason === 'timeout') {
    return new RosterNetworkError(
      `The roster service did not answer ${what} within ${facts.timeoutMs} ms (api.timeoutMs). It may be overloaded or unreachable.`,
      { code: 'timeout', kind: 'outage', status: null, requestId: null },
    );
  }
  return new RosterNetworkError(
    facts.redact(
      `Could not reach the roster service at ${facts.origin} for ${what} (${facts.detail}). Check the server's internet access and ${addressSetting}.`,
    ),
    { code: 'network', kind: 'outage', status: null, requestId: null },
  );
}

/** `4 MB`, `512 kB`: a size for messages. */
export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
