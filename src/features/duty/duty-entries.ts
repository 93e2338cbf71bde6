import { entryValues } from '../audit/entry-values';
import type { DutyFields } from './duty-fields';

/** Words that say an entry is about time on duty: `duty_session.update`, `DutySession`, `timelogs`. */
const DUTY_WORDS = new Set(['duty', 'timelog', 'timelogs', 'shift', 'shifts']);

export interface DutyEntryIndex {
  /** Session id → the member holding it, for the sessions kept. */
  owners: ReadonlyMap<string, string>;
  /** Members whose sessions are read (those online). */
  members: ReadonlySet<string>;
  fields: DutyFields;
}

/**
 * The members whose duty sessions these audit entries may have changed: an entry that names a
 * session kept names its member; an entry that speaks of duty time (a word such as `duty` or
 * `timelogs`, or a session field's own name such as its end) concerns every member it names, as
 * some entries name the member and not the session. The document does not show an entry's fields,
 * so only values count. Entries too large to read are skipped here; the audit feed reports them.
 */
export function membersNamedByDutyEntries(entries: readonly unknown[], index: DutyEntryIndex): Set<string> {
  const named = new Set<string>();
  const fieldNames = new Set(
    [index.fields.end, index.fields.duration?.field].filter((name): name is string => !!name),
  );
  for (const entry of entries) {
    let values: Set<string>;
    try {
      values = entryValues(entry);
    } catch {
      continue;
    }
    let aboutDuty = false;
    for (const value of values) {
      const owner = index.owners.get(value);
      if (owner !== undefined) named.add(owner);
      aboutDuty ||= fieldNames.has(value) || speaksOfDuty(value);
    }
    if (aboutDuty) for (const value of values) if (index.members.has(value)) named.add(value);
  }
  return named;
}

function speaksOfDuty(value: string): boolean {
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((word) => DUTY_WORDS.has(word));
}
