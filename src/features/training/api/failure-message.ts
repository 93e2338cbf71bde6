import { LEARNING_ROUTES, PUBLIC_API } from './api-layout';
import { TrainingApiError } from './training-api-error';

const KEYS_PAGE = "the learning service's settings (API keys)";

export interface FailureFacts {
  status: number;
  method: string;
  /** Path of the request (with or without the `/api/public/v1` prefix), without the query. */
  path: string;
  /** The body's text, already redacted. */
  body: string;
}

/**
 * Turns a non-2xx answer into an error an owner can act on. The envelope's shape is not
 * documented, so the service's own words are looked for in the usual places.
 */
export function failureError(facts: FailureFacts): TrainingApiError {
  const { status } = facts;
  const request = `${facts.method} ${facts.path}`;
  const said = serviceWords(facts.body);
  const saidText = said ? ` The service said: "${said}".` : '';
  if (status === 401) {
    return new TrainingApiError(
      `The learning service refused the training API key (401): it is missing, wrong or revoked. Create a key in ${KEYS_PAGE} and set it in server.cfg with \`set roster_training_api_key "<key>"\`.${saidText}`,
      { kind: 'refused', status },
    );
  }
  if (status === 403) {
    const missing = missingPermission(facts);
    const what = missing.startsWith('flag ')
      ? `the organisation's \`${missing.slice(5)}\` feature flag is off; an organisation admin can turn it on in the learning service`
      : `the training API key lacks the \`${missing.slice(6)}\` scope; create a key with it in ${KEYS_PAGE}`;
    return new TrainingApiError(`The learning service refused ${request} (403): ${what}.${saidText}`, {
      kind: 'refused',
      status,
      missing,
    });
  }
  if (status === 404) {
    return new TrainingApiError(`The learning service has no such record for ${request} (404).${saidText}`, {
      kind: 'rejected',
      status,
    });
  }
  if (status === 429) {
    return new TrainingApiError(
      `The learning service is rate limiting the training API key (429) on ${request}. Requests wait and resume by themselves; if it repeats, lower training.perMinute.`,
      { kind: 'outage', status },
    );
  }
  if (status >= 500) {
    return new TrainingApiError(
      `The learning service failed on ${request} (HTTP ${status}); this is retried and usually passes.${saidText}`,
      { kind: 'outage', status },
    );
  }
  return new TrainingApiError(`The learning service rejected ${request} (HTTP ${status}).${saidText}`, {
    kind: 'rejected',
    status,
  });
}

/**
 * Which scope or flag a 403 is about: what the answer names, else what the endpoint needs
 * (the document: discord endpoints need the `discord` flag, gamification ones `gamification` too).
 */
export function missingPermission(facts: Pick<FailureFacts, 'method' | 'path' | 'body'>): string {
  const text = facts.body.toLowerCase();
  if (/api_access/.test(text)) return 'flag api_access';
  if (/gamification/.test(text)) return 'flag gamification';
  if (/discord/.test(text)) return 'flag discord';
  if (/enroll:write/.test(text)) return 'scope enroll:write';
  if (/\bscope\b/.test(text) && /\bread\b/.test(text)) return 'scope read';
  const path = facts.path.startsWith(PUBLIC_API) ? facts.path.slice(PUBLIC_API.length) : facts.path;
  if (path.includes('gamification')) return 'flag gamification';
  if (path.startsWith(`${LEARNING_ROUTES.discord}/`)) return 'flag discord';
  if (facts.method === 'POST' && path === LEARNING_ROUTES.enrollments) return 'scope enroll:write';
  return 'scope read';
}

/** The service's own message from an error body of unknown shape, cut short. */
function serviceWords(body: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return '';
  }
  const pick = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const object = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
  const root = object(value);
  const error = object(root.error);
  const words =
    pick(error.message) ?? pick(root.message) ?? pick(root.detail) ?? pick(root.error) ?? pick(error.code);
  return words ? words.slice(0, 200) : '';
}
