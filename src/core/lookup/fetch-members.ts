import { listPages } from '../api/list-pages';
import { parseRecords } from '../api/parse-records';
import { assignmentSchema, type MemberRecord, memberSchema, toApiMember } from '../api/record-schemas';
import type { RequestExecutor } from '../api/request-executor';
import { RosterResponseError } from '../api/roster-api-error';
import type { Lane } from '../limiter/lane';
import type { ApiAssignment, ApiMember } from '../model';
import type { Logger } from '../ports';

/** A member record, with its assignments when the service sent them inline (else `null`). */
export interface MemberFound {
  member: ApiMember;
  assignments: ApiAssignment[] | null;
  /** In the join lane: the assignments, already asked for the moment the member's batch answered. */
  assignmentsAsked?: Promise<ApiAssignment[]>;
}

/**
 * Looks up to 100 licenses up in one members request (repeated `gameLicense`, pages followed).
 * Keyed by lower-cased license; a license missing from the map is not on the roster.
 */
export async function fetchMembers(
  executor: RequestExecutor,
  licenses: readonly string[],
  lane: Lane,
  logger: Logger,
): Promise<Map<string, MemberFound | Error>> {
  const wanted = new Set(licenses.map((license) => license.toLowerCase()));
  const query = new URLSearchParams(licenses.map((license): [string, string] => ['gameLicense', license]));
  // One member holds one license: the licenses asked for fill at most their own pages.
  const items = await listPages(executor, '/api/v1/members', query, {
    lane,
    permitHeld: true,
    atMost: wanted.size,
  });
  const found = new Map<string, MemberFound | Error>();
  for (const record of parseRecords(items, memberSchema, 'member', logger)) {
    const key = record.gameLicense.trim().toLowerCase();
    if (wanted.has(key) && !found.has(key)) found.set(key, withInline(record, logger));
  }
  // A record the resource cannot read says nothing about whether the player is on the roster.
  // When its license cannot be read either (missing, null, "", a renamed field) or matches none
  // asked for (another form, a filter the service ignored), it may belong to any license asked for:
  // every license left without a record is then unknown, not "not on the roster".
  let unplaceable = 0;
  for (const item of items) {
    const license = licenseOf(item);
    if (license !== null && found.has(license)) continue;
    if (license === null || !wanted.has(license)) unplaceable += 1;
    else found.set(license, unreadableRecord());
  }
  if (unplaceable > 0) {
    const error = unreadableRecord(
      `${unplaceable} member record(s) whose gameLicense is missing or matches no license asked for`,
    );
    for (const license of wanted) if (!found.has(license)) found.set(license, error);
  }
  return found;
}

function unreadableRecord(what = 'a member record the resource cannot read'): RosterResponseError {
  return new RosterResponseError(`The roster service sent ${what}.`, {
    code: 'malformed_response',
    kind: 'outage',
    status: 200,
    requestId: null,
  });
}

function licenseOf(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const { gameLicense } = item as { gameLicense?: unknown };
  const key = typeof gameLicense === 'string' ? gameLicense.trim().toLowerCase() : '';
  return key === '' ? null : key;
}

/** Ten assignments for each of 100 members: more pages than that means the paging is broken. */
const ASSIGNMENT_PAGES = 10;

/**
 * The assignments (rank expanded) of many members in one request (repeated `memberId`, pages
 * followed). Every member asked for is in the map, with `[]` when they hold none.
 */
export async function fetchAssignments(
  executor: RequestExecutor,
  memberIds: readonly string[],
  lane: Lane,
  logger: Logger,
): Promise<Map<string, ApiAssignment[]>> {
  const params = new URLSearchParams(memberIds.map((id): [string, string] => ['memberId', id]));
  params.set('include', 'rank');
  const items = await listPages(executor, '/api/v1/department-assignments', params, {
    lane,
    permitHeld: true,
    maxPages: ASSIGNMENT_PAGES,
  });
  const byMember = new Map<string, ApiAssignment[]>(memberIds.map((id) => [id, []]));
  for (const assignment of parseRecords(items, assignmentSchema, 'department assignment', logger)) {
    byMember.get(assignment.memberId)?.push(assignment);
  }
  return byMember;
}

function withInline(record: MemberRecord, logger: Logger): MemberFound {
  if (!Array.isArray(record.departmentAssignments))
    return { member: toApiMember(record, undefined), assignments: null };
  const inline = record.departmentAssignments.map((item) => withMemberId(item, record.id));
  const assignments = parseRecords(inline, assignmentSchema, 'department assignment', logger);
  return { member: toApiMember(record, assignments), assignments };
}

// Inline assignments may leave out the member they belong to.
function withMemberId(item: unknown, memberId: string): unknown {
  if (typeof item !== 'object' || item === null || 'memberId' in item) return item;
  return { ...item, memberId };
}
