import { type Envelope, readEnvelope, readJson } from './envelope';
import type { HeaderBag } from './limiter/rate-limit-headers';
import { headerValue } from './limiter/rate-limit-headers';
import { RosterResponseError, RosterServiceError } from './roster-api-error';
import { kindOfCode } from './service-error-codes';
import { describeServiceError } from './service-error-message';

/** One HTTP answer, as the transport read it. */
export interface HttpAnswer {
  status: number;
  headers: HeaderBag;
  text: string;
}

export interface ReadContext {
  /** `METHOD /path`, for messages. */
  request: string;
  /** From Retry-After, for rate_limited errors. */
  retryAfterMs?: number | undefined;
  /** Removes secrets from text that ends up in an error. */
  redact(text: string): string;
}

/** The envelope of a successful answer; every other answer becomes a typed error. */
export function readEnvelopeAnswer(raw: HttpAnswer, context: ReadContext): Envelope {
  // The key comes out before any part of the body is read or quoted: a cut made first could keep
  // most of an echoed key out of reach of the redaction.
  const answer = redacted(raw, context);
  const reading = readEnvelope(answer.text);
  const headerId = headerValue(answer.headers, 'x-request-id') ?? null;
  if (!reading.ok) throw notTheApi(answer, context, reading.problem, headerId);
  const { envelope } = reading;
  const requestId = envelope.meta?.request_id ?? headerId;
  const ok = answer.status >= 200 && answer.status < 300;
  if (envelope.success && ok) return envelope;
  const code = envelope.error?.code ?? (answer.status === 429 ? 'rate_limited' : 'internal');
  const serviceMessage = context.redact(envelope.error?.message ?? '');
  const details = redactDetails(envelope.error?.details, context);
  const facts = { code, serviceMessage, details, status: answer.status, request: context.request };
  return throwServiceError(facts, requestId, context);
}

/** A plain JSON answer (e.g. openapi.json); an error envelope or a non-2xx answer still throws. */
export function readJsonAnswer(raw: HttpAnswer, context: ReadContext): unknown {
  const answer = redacted(raw, context);
  const ok = answer.status >= 200 && answer.status < 300;
  const headerId = headerValue(answer.headers, 'x-request-id') ?? null;
  const envelope = readEnvelope(answer.text);
  if (envelope.ok && (!envelope.envelope.success || !ok)) return readEnvelopeAnswer(answer, context);
  if (!ok) throw notTheApi(answer, context, 'an error page', headerId);
  const json = readJson(answer.text);
  if (!json.ok) throw notTheApi(answer, context, json.problem, headerId);
  return json.value;
}

function redacted(answer: HttpAnswer, context: ReadContext): HttpAnswer {
  return { ...answer, text: context.redact(answer.text) };
}

function redactDetails(details: unknown, context: ReadContext): unknown {
  if (details === undefined) return undefined;
  const text = JSON.stringify(details);
  const clean = context.redact(text);
  return clean === text ? details : (JSON.parse(clean) as unknown);
}

function throwServiceError(
  facts: Parameters<typeof describeServiceError>[0],
  requestId: string | null,
  context: ReadContext,
): never {
  throw new RosterServiceError(describeServiceError(facts), {
    code: facts.code,
    kind: kindOfCode(facts.code, facts.status),
    status: facts.status,
    requestId,
    serviceMessage: facts.serviceMessage,
    details: facts.details,
    retryAfterMs: context.retryAfterMs ?? null,
  });
}

function notTheApi(answer: HttpAnswer, context: ReadContext, problem: string, requestId: string | null) {
  if (answer.status === 429) {
    return new RosterServiceError(
      describeServiceError({
        code: 'rate_limited',
        serviceMessage: '',
        details: undefined,
        status: 429,
        request: context.request,
      }),
      {
        code: 'rate_limited',
        kind: 'outage',
        status: 429,
        requestId,
        serviceMessage: '',
        details: undefined,
        retryAfterMs: context.retryAfterMs ?? null,
      },
    );
  }
  const ok = answer.status >= 200 && answer.status < 300;
  const hint = ok
    ? 'Check that api.baseUrl (or roster_base_url) is the roster service itself.'
    : 'The service or a proxy in front of it may be down; this is retried and usually passes.';
  return new RosterResponseError(
    context.redact(
      `The roster service answered ${context.request} with HTTP ${answer.status} and ${problem}, not the roster API's JSON. ${hint}`,
    ),
    { code: ok ? 'malformed_response' : 'http_error', kind: 'outage', status: answer.status, requestId },
  );
}
