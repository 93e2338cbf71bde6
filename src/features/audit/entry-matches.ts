import type { CatalogIndex } from '../../roster/catalog-index';
import type { PlayerRegistry } from '../../roster/player-registry';
import { entryId } from './entry-identity';
import { entryValues } from './entry-values';

/** What the entries of one read concern. */
export interface EntryMatches {
  /** Licenses of the members the entries name, online or held in the cache. */
  licenses: Set<string>;
  /** Some entry names a department or rank and no member: departments and ranks are read again. */
  catalog: boolean;
  /** Entries that could not be read (`<id>: why`): skipped, and what they said is lost. */
  unreadable: string[];
}

/** Who a value names: a member the server holds a record of (their license), by id. */
export interface MemberIndex {
  licenseNamedBy(id: string): string | undefined;
}

/**
 * Matches entries to members and the catalog. An entry concerns a member when any value in it, at
 * any depth, is the member's id or one of their assignments' ids: online players by their current
 * record, everyone else by the record the cache holds.
 */
export function matchEntries(
  entries: readonly unknown[],
  players: PlayerRegistry,
  cache: MemberIndex,
  catalog: CatalogIndex,
): EntryMatches {
  const online = onlineLicenses(players);
  const matches: EntryMatches = { licenses: new Set(), catalog: false, unreadable: [] };
  for (const entry of entries) {
    let values: Set<string>;
    try {
      values = entryValues(entry);
    } catch (error) {
      const id = entryId(entry);
      const why = error instanceof Error ? error.message : String(error);
      matches.unreadable.push(
        `${id === null ? 'an entry without an id' : `entry ${JSON.stringify(id)}`}: ${why}`,
      );
      continue;
    }
    let named = false;
    let catalogId = false;
    for (const value of values) {
      const license = online.get(value) ?? cache.licenseNamedBy(value);
      if (license !== undefined) {
        named = true;
        matches.licenses.add(license);
      } else if (catalog.departments.has(value) || catalog.rank(value) || isCatalogWord(value)) {
        catalogId = true;
      }
    }
    // A rank change names the member and their new rank: the member's re-read covers it.
    if (catalogId && !named) matches.catalog = true;
  }
  return matches;
}

const CATALOG_WORDS = new Set(['department', 'departments', 'rank', 'ranks', 'subdivision', 'subdivisions']);
const RECORD_WORDS = new Set([
  'assignment',
  'assignments',
  'member',
  'members',
  'id',
  'ids',
  'user',
  'users',
]);

/**
 * A value that says an entry is about a department or a rank itself (`department.create`,
 * `RANK_DELETED`, `Department`): how an entry about one the catalog does not hold yet (a new
 * department, no known id in it) still reloads it. Not an assignment's or a member's (words such as
 * `department_assignment`, `rankId`), and not free text (a description with spaces).
 */
function isCatalogWord(value: string): boolean {
  if (value.length > 40 || /\s/.test(value)) return false;
  const words = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
  return words.some((w) => CATALOG_WORDS.has(w)) && !words.some((w) => RECORD_WORDS.has(w));
}

/** Member ids and assignment ids of online players → their license. */
function onlineLicenses(players: PlayerRegistry): Map<string, string> {
  const byId = new Map<string, string>();
  for (const [, entry] of players.onlinePlayers()) {
    if (!entry.view || entry.license === null) continue;
    byId.set(entry.view.member.id, entry.license);
    for (const assignmentId of entry.view.assignments.values()) byId.set(assignmentId, entry.license);
  }
  return byId;
}

/** Entries skipped in one read, in a few words: the first three named, the rest counted. */
export function unreadableReason(unreadable: readonly string[]): string {
  const more = unreadable.length > 3 ? ` and ${unreadable.length - 3} more` : '';
  return `skipped ${unreadable.slice(0, 3).join('; ')}${more}`;
}
