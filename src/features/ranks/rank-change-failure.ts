import { LaneWaitTooLongError, LimiterClosedError, RosterApiError, RosterServiceError } from '../../http';

/** What a rank change was about, for sentences a supervisor reads. */
export interface RankChangeContext {
  target: string;
  department: string;
  rank: string;
}

/** The write scope named in the service's `insufficient_scope` message, if it names one. */
export function scopeNamed(message: string): string | null {
  return /\b[a-z]+:write\b/i.exec(message)?.[0]?.toLowerCase() ?? null;
}

/** The failing field of a `validation_error`, from `error.details` (shape not documented). */
export function fieldNamed(details: unknown): string | null {
  if (typeof details === 'string' && details.trim() !== '') return details.trim().slice(0, 80);
  if (typeof details !== 'object' || details === null) return null;
  if (Array.isArray(details)) return details.length > 0 ? fieldNamed(details[0]) : null;
  const record = details as Record<string, unknown>;
  for (const name of ['field', 'name', 'path', 'param', 'parameter']) {
    const value = record[name];
    if (typeof value === 'string' && value !== '') return value.slice(0, 80);
    if (Array.isArray(value) && value.length > 0) return value.map(String).join('.').slice(0, 80);
  }
  const keys = Object.keys(record);
  return keys.length === 1 ? keys[0]!.slice(0, 80) : null;
}

/** Turns a failed PATCH into a reason a person understands; never mentions the key itself. */
export function rankChangeFailure(error: unknown, c: RankChangeContext): string {
  const what = `${c.rank} in ${c.department} for ${c.target}`;
  if (error instanceof LimiterClosedError) return `The roster resource is stopping; ${what} was not set.`;
  if (error instanceof LaneWaitTooLongError)
    return `The roster is rate limiting this server right now; ${what} was not set. Try again in a minute.`;
  if (error instanceof RosterServiceError) {
    switch (error.code) {
      case 'insufficient_scope': {
        const scope = scopeNamed(error.serviceMessage);
        return `The server's roster API key may not change ranks: it lacks ${scope ? `the scope ${scope}` : 'a write scope'}. The owner adds it to the key in the roster dashboard (Settings, API Keys).`;
      }
      case 'validation_error': {
        const field = fieldNamed(error.details);
        const said = error.serviceMessage ? ` ("${error.serviceMessage.slice(0, 160)}")` : '';
        return `The roster refused ${what}: the field ${field ?? 'sent'} was not accepted${said}.`;
      }
      case 'not_found':
        return `${c.target}'s assignment in ${c.department} no longer exists on the roster; their record is being re-read. Check their departments and try again.`;
      case 'conflict':
        return `The roster refused ${what} because of a conflict (the record changed or is in use). Try again in a moment.`;
      case 'rate_limited':
        return `The roster is rate limiting this server right now; ${what} was not set. Try again in a minute.`;
      case 'plan_required':
      case 'invalid_api_key':
      case 'ip_not_allowed':
        return `The roster refused this server's key (${error.code}); ranks cannot be changed until the owner fixes it (see \`roster doctor\`).`;
      default:
        return `The roster could not set ${what} (${error.code}). Try again in a moment.`;
    }
  }
  if (error instanceof RosterApiError && error.kind === 'refused') {
    return `The roster refused this server's key (${error.code}); ranks cannot be changed until the owner fixes it (see \`roster doctor\`).`;
  }
  return `The roster is unavailable right now; ${what} was not set. Try again in a moment.`;
}
