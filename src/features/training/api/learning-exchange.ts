import type { Dispatcher } from 'undici';
import {
  ExchangeFailure,
  exchange,
  type HeaderBag,
  HeldBeforeSending,
  megabytes,
  type RawAnswer,
} from '../../../http';
import { errorMessage } from '../../../platform/error-message';
import type { Clock } from '../../../platform/ports';
import { failureError } from './failure-message';
import { TrainingApiError } from './training-api-error';

export interface LearningAnswer {
  status: number;
  headers: HeaderBag;
  /** The parsed body; `null` for an empty one. */
  json: unknown;
}

/** What one attempt needs: where it goes, the bearer key, and its limits. */
export interface ExchangeSetup {
  dispatcher: Dispatcher;
  origin: string;
  /** The base URL's path, without a trailing slash: partner paths go under it. */
  basePath: string;
  apiKey: string;
  userAgent: string;
  clock: Clock;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Cuts the key out of a message built from an answer. */
  redact: (text: string) => string;
}

/** What a request to the learning service puts on the wire. */
export interface WireRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the service's address, e.g. `/api/public/v1/courses`. */
  path: string;
  query?: Record<string, string> | undefined;
  body?: unknown;
}

export interface Attempt extends WireRequest {
  /** Safe to send again when the connection drops before the answer. */
  resendable: boolean;
  /** True when the request must not be written after all (see `exchange`). */
  held: () => boolean;
}

/** One attempt: the raw answer, or an outage error when none came. */
export async function sendOnce(setup: ExchangeSetup, request: Attempt): Promise<RawAnswer> {
  const query = new URLSearchParams(request.query ?? {}).toString();
  const headers: Record<string, string> = {
    authorization: `Bearer ${setup.apiKey}`,
    'user-agent': setup.userAgent,
    accept: 'application/json',
  };
  let body: string | null = null;
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const label = `${request.method} ${request.path}`;
  const { clock, timeoutMs, maxBodyBytes } = setup;
  try {
    return await exchange(
      setup.dispatcher,
      {
        origin: setup.origin,
        path: `${setup.basePath}${request.path}${query ? `?${query}` : ''}`,
        method: request.method,
        headers,
        body,
        resendable: request.resendable,
        held: request.held,
      },
      { clock, timeoutMs, maxBodyBytes },
    );
  } catch (error) {
    if (error instanceof HeldBeforeSending) throw error;
    throw failure(setup, label, error);
  }
}

function failure(setup: ExchangeSetup, label: string, error: unknown): TrainingApiError {
  if (error instanceof ExchangeFailure && error.reason === 'too_large') {
    return new TrainingApiError(
      `The learning service answered ${label} with more than ${megabytes(setup.maxBodyBytes)}; the resource stopped reading it (training.maxBodyMB).`,
      { kind: 'outage', status: error.status, unreadable: true },
    );
  }
  if (error instanceof ExchangeFailure && error.reason === 'timeout') {
    return new TrainingApiError(
      `The learning service did not answer ${label} within ${setup.timeoutMs} ms (api.timeoutMs).`,
      { kind: 'outage', status: null },
    );
  }
  const detail = error instanceof ExchangeFailure ? error.detail : errorMessage(error);
  return new TrainingApiError(
    setup.redact(
      `Could not reach the learning service at ${setup.origin} for ${label} (${detail}). Check training.baseUrl and the server's internet access.`,
    ),
    { kind: 'outage', status: null },
  );
}

/** A 2xx answer as JSON; anything else as a typed error. */
export function readAnswer(
  request: { method: string; path: string },
  raw: RawAnswer,
  redact: (text: string) => string,
): LearningAnswer {
  const { status, headers, text } = raw;
  if (status < 200 || status >= 300) {
    throw failureError({ status, method: request.method, path: request.path, body: redact(text) });
  }
  if (text.trim() === '') return { status, headers, json: null };
  try {
    return { status, headers, json: JSON.parse(text) as unknown };
  } catch {
    throw new TrainingApiError(
      `The learning service answered ${request.method} ${request.path} with HTTP ${status} but not JSON. Check that training.baseUrl is the learning service itself.`,
      { kind: 'outage', status },
    );
  }
}
