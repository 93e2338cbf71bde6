import { CREATED_AT, type DutyFields, STARTED_AT } from './duty-fields';
import type { DutySession } from './duty-ledger';

/** A duty session as listed, read through the fields the description named. */
export interface ListedSession extends DutySession {
  id: string;
  member: string;
}

/**
 * Reads one listed record; null when it names no member or no readable start. A record without
 * an id is told apart by its member and start; one without a readable `createdAt` is taken as
 * stored when it began, as a session usually is. An end before the start counts as no time.
 */
export function readListedSession(item: unknown, fields: DutyFields): ListedSession | null {
  if (typeof item !== 'object' || item === null) return null;
  const record = item as Record<string, unknown>;
  const member = record[fields.member];
  const start = dateOf(record[STARTED_AT]);
  if (typeof member !== 'string' || start === null) return null;
  const id =
    typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : `${member}@${start}`;
  let end = fields.end ? dateOf(record[fields.end]) : null;
  const length = fields.duration ? record[fields.duration.field] : undefined;
  if (end === null && fields.duration && typeof length === 'number' && Number.isFinite(length))
    end = start + length * fields.duration.unitMs;
  return {
    id,
    member,
    start,
    end: end !== null && end < start ? start : end,
    stored: dateOf(record[CREATED_AT]) ?? start,
  };
}

function dateOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}
