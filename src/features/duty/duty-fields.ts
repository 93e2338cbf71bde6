import { ROSTER_ROUTES } from '../../roster/client';
import { listedRecordFields, listQueryParameters } from '../../roster/client/openapi-check';

/** The only duty-session field the API document names. */
export const STARTED_AT = 'startedAt';
/** When a record was stored: the document gives every resource one, usable with `.after`. */
export const CREATED_AT = 'createdAt';
export const DUTY_SESSIONS = ROSTER_ROUTES.dutySessions;

/** Where a duty session keeps what the resource needs, as the service's OpenAPI description says. */
export interface DutyFields {
  /** The member's id on the session; also the filter that asks for some members only. */
  member: string;
  /** When the session ended (null or absent while on duty). */
  end: string | null;
  /** Its length, and how many ms one unit of it is. */
  duration: { field: string; unitMs: number } | null;
  /** What the list can be sorted by, so a long read resumes where it stopped. */
  sortable: { [STARTED_AT]: boolean; [CREATED_AT]: boolean };
}

export type DutyFieldsReading = { ok: true; fields: DutyFields } | { ok: false; why: string };

type Json = Record<string, unknown>;

const UNITS: [RegExp, number][] = [
  [/second|\bsecs?\b/i, 1000],
  [/minute|mins?\b/i, 60_000],
  [/hour|hrs?\b/i, 3_600_000],
];

/**
 * Reads the duty session's fields from the OpenAPI description. The names are the service's
 * own, so each is found by what its schema and description say: the member reference is a string
 * field naming a member that the list can be filtered by; the end a date-time (other than the
 * start and the record's own stamps) that speaks of an end; the length a number with a unit.
 */
export function readDutyFields(document: unknown): DutyFieldsReading {
  const fields = listedRecordFields(document, DUTY_SESSIONS);
  if (fields === null) return { ok: false, why: `GET ${DUTY_SESSIONS} and its records are not described` };
  if (!fields.has(STARTED_AT)) return { ok: false, why: `its records have no ${STARTED_AT}` };
  const parameters = listQueryParameters(document, DUTY_SESSIONS);
  const filters = new Set(parameters.map((p) => String(p.name)));
  const member = [...fields]
    .filter(
      ([name, schema]) => name !== 'id' && isType(schema, 'string') && mentions(name, schema, /member/i),
    )
    .sort(([a], [b]) => Number(filters.has(b)) - Number(filters.has(a)))[0]?.[0];
  if (member === undefined) return { ok: false, why: 'no field of a session names its member' };
  if (!filters.has(member))
    return { ok: false, why: `its member field ${member} is not a filter of the list` };
  const stamps = new Set([STARTED_AT, CREATED_AT, 'updatedAt', 'deletedAt']);
  const end =
    [...fields].find(
      ([name, schema]) =>
        !stamps.has(name) &&
        schema.format === 'date-time' &&
        mentions(name, schema, /\bend|ended|stop|finish|off\b|off duty|clock(ed)?.?out/i),
    )?.[0] ?? null;
  const duration = durationField(fields);
  if (end === null && duration === null)
    return { ok: false, why: 'no field of a session tells its end or its length' };
  const sort = parameters.find((p) => p.name === 'sort');
  const schema = sort?.schema;
  const allowed = isObjectLike(schema) ? (schema as Json).enum : undefined;
  const sortsBy = (field: string) =>
    sort !== undefined && (!Array.isArray(allowed) || allowed.includes(field));
  const sortable = { [STARTED_AT]: sortsBy(STARTED_AT), [CREATED_AT]: sortsBy(CREATED_AT) };
  return { ok: true, fields: { member, end, duration, sortable } };
}

/** `rosterRef (member), stoodDownAt (end), onDutySeconds (length, seconds)`, for `roster doctor`. */
export function describeDutyFields(fields: DutyFields): string {
  const parts = [`${fields.member} (member)`, `${STARTED_AT} (start)`];
  if (fields.end) parts.push(`${fields.end} (end)`);
  if (fields.duration) parts.push(`${fields.duration.field} (length, ${unitName(fields.duration.unitMs)})`);
  return parts.join(', ');
}

function durationField(fields: Map<string, Json>): DutyFields['duration'] {
  for (const [name, schema] of fields) {
    if (!isType(schema, 'integer') && !isType(schema, 'number')) continue;
    if (!mentions(name, schema, /duration|length|elapsed|time on|on.?duty|seconds|minutes|hours/i)) continue;
    const text = `${name} ${String(schema.description ?? '')}`;
    const unit = UNITS.find(([pattern]) => pattern.test(text));
    if (unit) return { field: name, unitMs: unit[1] };
  }
  return null;
}

function unitName(ms: number): string {
  return ms === 1000 ? 'seconds' : ms === 60_000 ? 'minutes' : 'hours';
}

function mentions(name: string, schema: Json, pattern: RegExp): boolean {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return pattern.test(words) || pattern.test(String(schema.description ?? ''));
}

function isType(schema: Json, type: string): boolean {
  const declared = schema.type;
  return declared === type || (Array.isArray(declared) && declared.includes(type));
}

function isObjectLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
