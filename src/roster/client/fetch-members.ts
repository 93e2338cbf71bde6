import { type Lane, type RequestExecutor, RosterResponseError } from '../../http';
import type { Logger } from '../../platform/ports';
import type { LicenseClaims } from '../claimed-licenses';
import type { ApiAssignment, MemberFound } from '../model';
import { newestMembership } from '../newest-membership';
import { listPages } from './list-pages';
import { parseRecords } from './parse-records';
import { assignmentSchema, type MemberRecord, memberSchema, toApiMember } from './record-schemas';
import { ROSTER_ROUTES } from './routes';

export type { MemberFound };

/** The service's largest page. */
const PAGE_SIZE = 100;

/**
 * Looks up to 100 licenses up in one members request (repeated `gameLicense`, pages followed).
 * Keyed by lower-cased license; a license missing from the map is not on the roster. When the
 * service lists several members for one license (an old membership and a new one), the most
 * recently created decides, whatever the order listed, and `claims` is told.
 */
export async function fetchMembers(
  executor: RequestExecutor,
  licenses: readonly string[],
  lane: Lane,
  logger: Logger,
  claims?: LicenseClaims,
): Promise<Map<string, MemberFound | Error>> {
  const wanted = new Set(licenses.map((license) => license.toLowerCase()));
  const query = new URLSearchParams(licenses.map((license): [string, string] => ['gameLicense', license]));
  // A license may be held by more than one membership, so the records can outnumber the licenses:
  // room for two a license, in whole pages. A further page is asked for only when the service says
  // one follows; 100 licenses with no second membership still take one request.
  const room = Math.ceil((2 * wanted.size) / PAGE_SIZE) * PAGE_SIZE;
  const items = await listPages(executor, ROSTER_ROUTES.members, query, {
    lane,
    permitHeld: true,
    atMost: room,
  });
  const found = new Map<string, MemberFound | Error>();
  // So many records that the read may have stopped short: a membership of any license asked for
  // may be among those not read, so none of them can be decided from this answer.
  if (items.length >= room) {
    const error = unreadableRecord(
      `${items.length} member records for ${wanted.size} license(s), more than the resource reads for them`,
    );
    for (const license of wanted) found.set(license, error);
    return found;
  }
  const read = byLicense(parseRecords(items, memberSchema, 'member', logger), wanted);
  for (const [license, records] of read) {
    const newest = newestRecord(records);
    found.set(license, withInline(newest, logger));
    const ids = new Set(records.map((record) => record.id));
    if (ids.size > 1) claims?.note(license, [...ids], newest.id);
  }
  // A record the resource cannot read says nothing about whether the player is on the roster, nor
  // whether it is the most recent membership of its license: a license asked for that it names is
  // unknown, even beside a record that could be read.
  // When its license cannot be read either (missing, null, "", a renamed field) or matches none
  // asked for (another form, a filter the service ignored), it may belong to any license asked for:
  // every license left without a record is then unknown, not "not on the roster".
  const listed = new Map<string, number>();
  let unplaceable = 0;
  for (const item of items) {
    const license = licenseOf(item);
    if (license === null || !wanted.has(license)) unplaceable += 1;
    else listed.set(license, (listed.get(license) ?? 0) + 1);
  }
  for (const [license, count] of listed)
    if (count > (read.get(license)?.length ?? 0)) found.set(license, unreadableRecord());
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

/** The records read for each license asked for, in the order listed. */
function byLicense(
  records: readonly MemberRecord[],
  wanted: ReadonlySet<string>,
): Map<string, MemberRecord[]> {
  const read = new Map<string, MemberRecord[]>();
  for (const record of records) {
    const key = record.gameLicense.trim().toLowerCase();
    if (!wanted.has(key)) continue;
    const list = read.get(key);
    if (list) list.push(record);
    else read.set(key, [record]);
  }
  return read;
}

/** The most recently created membership among a license's records (a stamp that is no text counts as none). */
function newestRecord(records: readonly MemberRecord[]): MemberRecord {
  const newest = newestMembership(
    records.map((record) => ({
      id: record.id,
      createdAt: typeof record.createdAt === 'string' ? record.createdAt : undefined,
      record,
    })),
  );
  return newest?.record ?? records[0]!;
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
  const items = await listPages(executor, ROSTER_ROUTES.departmentAssignments, params, {
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
