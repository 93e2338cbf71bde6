import { isServiceErrorCode } from './service-error-codes';

export interface ServiceErrorFacts {
  code: string;
  serviceMessage: string;
  details: unknown;
  status: number | null;
  /** `METHOD /path` of the request, without the query. */
  request: string;
}

const KEYS_PAGE = 'the roster dashboard (Settings, API Keys)';

/** Turns a service error into a sentence a server owner can act on. */
export function describeServiceError(facts: ServiceErrorFacts): string {
  const said = facts.serviceMessage ? ` The service said: "${facts.serviceMessage}".` : '';
  const code = facts.code;
  if (!isServiceErrorCode(code)) {
    return `The roster service refused ${facts.request} with an error this resource does not know (${code}, HTTP ${facts.status ?? '?'}).${said}`;
  }
  switch (code) {
    case 'invalid_api_key':
      return `The roster API key was refused: it is missing, wrong, revoked or expired. Create a key in ${KEYS_PAGE} and put it in server.cfg as \`set roster_api_key "<key>"\`.`;
    case 'insufficient_scope': {
      const scope = /\b[a-z]+:(?:read|write)\b/.exec(facts.serviceMessage)?.[0];
      const needs = scope ? `the scope ${scope}` : 'a scope';
      return `The roster API key lacks ${needs}, needed for ${facts.request}. Add it to the key in ${KEYS_PAGE} (or create a key that has it).${said}`;
    }
    case 'ip_not_allowed':
      return `This server's address is not on the API key's IP allowlist. Add this server's public IP to the key in ${KEYS_PAGE}, or use a key without an allowlist.`;
    case 'plan_required':
      return 'The community is not on an active Professional plan, which the roster API requires. Renew or upgrade the plan in the roster dashboard; the resource resumes by itself once it is active.';
    case 'not_found':
      return `The roster service has no such endpoint or record: ${facts.request}. Check that api.baseUrl (or roster_base_url) is the service's address.${said}`;
    case 'method_not_allowed':
      return `The roster service does not allow ${facts.request}.${said}`;
    case 'conflict':
      return `The roster service refused ${facts.request}: the record already exists or is still in use.${said}`;
    case 'validation_error':
      return `The roster service rejected a field of ${facts.request}${detailText(facts.details)}.${said}`;
    case 'rate_limited':
      return "The roster service is rate limiting this API key (too many requests). Requests wait and resume by themselves; if this repeats, another server may share the key, or rateLimit.perMinute is above the key's limit.";
    case 'internal':
      return "The roster service had an internal fault. If it keeps happening, quote the request id to the service's support.";
  }
}

function detailText(details: unknown): string {
  if (details === undefined || details === null) return '';
  if (typeof details === 'string') return ` (${details})`;
  try {
    return ` (${JSON.stringify(details).slice(0, 200)})`;
  } catch {
    return '';
  }
}
