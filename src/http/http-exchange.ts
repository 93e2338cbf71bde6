import type { Dispatcher } from 'undici';
import { errorMessage } from '../platform/error-message';
import type { Clock } from '../platform/ports';
import type { HeaderBag } from './limiter/rate-limit-headers';
import { HeldBeforeSending, holdWhile } from './send-gate';

/** The largest answer read by default: a page of 100 records is a few hundred kB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface ExchangeRequest {
  origin: string;
  /** Path with its query. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  /**
   * May be sent a second time when a pooled socket turns out closed before any answer came
   * (reads; writes only when the document says they are safe to repeat).
   */
  resendable: boolean;
  /**
   * True while this request may not leave (a 429 pause, a refused key): asked when it is handed
   * over and again right before its bytes are written; it then fails with `HeldBeforeSending`.
   */
  held?: (() => boolean) | undefined;
}

export interface ExchangeLimits {
  clock: Clock;
  /** The whole exchange (connect, a resend, headers and body) ends by then. */
  timeoutMs: number;
  /** Reading stops past this many bytes. */
  maxBodyBytes: number;
}

export interface RawAnswer {
  status: number;
  headers: HeaderBag;
  text: string;
}

/** Why no answer could be read: no answer in time, none at all, or one too large to read. */
export class ExchangeFailure extends Error {
  override readonly name = 'ExchangeFailure';
  constructor(
    readonly reason: 'timeout' | 'network' | 'too_large',
    /** For `network`: the socket error's code or message. For `too_large`: the status. */
    readonly detail: string,
    readonly status: number | null = null,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/**
 * Errors of a pooled socket the server had already closed: the request never got an answer byte.
 * `UND_ERR_SOCKET` is undici's "other side closed"; ECONNRESET/EPIPE are the same race seen from the
 * kernel.
 */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * One HTTP exchange with a deadline of its own (a plain one-shot timer: see keep-alive-pool.ts), a
 * cap on the answer's size, and one transparent resend when a reused socket was found closed.
 * A request a send gate held back (send-gate.ts) rejects with its `HeldBeforeSending` as it is.
 */
export async function exchange(
  dispatcher: Dispatcher,
  request: ExchangeRequest,
  limits: ExchangeLimits,
): Promise<RawAnswer> {
  const via = request.held ? holdWhile(dispatcher, request.held) : dispatcher;
  const controller = new AbortController();
  let timedOut = false;
  let expire: () => void = () => {};
  const expired = new Promise<never>((_, reject) => {
    expire = () => reject(new ExchangeFailure('timeout', `${limits.timeoutMs} ms`));
  });
  expired.catch(() => {});
  const timer = limits.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
    expire();
  }, limits.timeoutMs);
  const options: Dispatcher.RequestOptions = {
    origin: request.origin,
    path: request.path,
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.body,
    signal: controller.signal,
  };
  let response: Dispatcher.ResponseData | undefined;
  try {
    try {
      response = await Promise.race([via.request(options), expired]);
    } catch (error) {
      if (timedOut || !request.resendable || !STALE_SOCKET.has(codeOf(error))) throw error;
      response = await Promise.race([via.request(options), expired]);
    }
    const text = await Promise.race([readCapped(response, limits.maxBodyBytes), expired]);
    return { status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    response?.body.destroy();
    if (error instanceof ExchangeFailure || error instanceof HeldBeforeSending) throw error;
    if (timedOut) throw new ExchangeFailure('timeout', `${limits.timeoutMs} ms`);
    throw new ExchangeFailure('network', codeOf(error) || errorMessage(error));
  } finally {
    limits.clock.clearTimeout(timer);
  }
}

async function readCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const tooLarge = () => new ExchangeFailure('too_large', `over ${maxBytes} bytes`, response.statusCode);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}
