import { type HeaderBag, megabytes, type RawAnswer, type SendFailure } from '../../../http';
import { failureError } from './failure-message';
import { TrainingApiError } from './training-api-error';

export interface LearningAnswer {
  status: number;
  headers: HeaderBag;
  /** The parsed body; `null` for an empty one. */
  json: unknown;
}

/** What a request to the learning service puts on the wire. */
export interface WireRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the service's address, e.g. `/api/public/v1/courses`. */
  path: string;
  query?: Record<string, string> | undefined;
  body?: unknown;
}

/** The learning service's wording of an attempt that got no readable answer: always an outage. */
export function learningFailure(facts: SendFailure): TrainingApiError {
  const label = facts.request;
  if (facts.reason === 'too_large') {
    return new TrainingApiError(
      `The learning service answered ${label} with more than ${megabytes(facts.maxBodyBytes)}; the resource stopped reading it (training.maxBodyMB).`,
      { kind: 'outage', status: facts.status, unreadable: true },
    );
  }
  if (facts.reason === 'timeout') {
    return new TrainingApiError(
      `The learning service did not answer ${label} within ${facts.timeoutMs} ms (api.timeoutMs).`,
      { kind: 'outage', status: null },
    );
  }
  return new TrainingApiError(
    facts.redact(
      `Could not reach the learning service at ${facts.origin} for ${label} (${facts.detail}). Check training.baseUrl and the server's internet access.`,
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
