import { listPages } from '../api/list-pages';
import { parseRecords } from '../api/parse-records';
import { assignmentSchema, type MemberRecord, memberSchema, toApiMember } from '../api/record-schemas';
import type { RequestExecutor } from '../api/request-executor';
import type { Lane } from '../limiter/lane';
import type { ApiAssignment, MemberLookup } from '../model';
import type { Logger } from '../ports';
import { chunkForQuery } from './query-budget';

/**
 * Looks up to 100 licenses up in one members request (repeated `gameLicense`), then the
 * assignments of every member found in one more request, unless the member records carry them
 * inline. Returns the lookups found, keyed by lower-cased license; a license missing from the
 * map is not on the roster.
 */
export async function fetchMemberLookups(
  executor: RequestExecutor,
  licenses: readonly string[],
  lane: Lane,
  logger: Logger,
  permitHeld: boolean,
): Promise<Map<string, MemberLookup>> {
  const wanted = new Set(licenses.map((license) => license.toLowerCase()));
  const query = new URLSearchParams(licenses.map((license): [string, string] => ['gameLicense', license]));
  const items = await listPages(executor, '/api/v1/members', query, { lane, permitHeld });
  const members = new Map<string, MemberRecord>();
  for (const record of parseRecords(items, memberSchema, 'member', logger)) {
    const key = record.gameLicense.toLowerCase();
    if (wanted.has(key) && !members.has(key)) members.set(key, record);
  }

  const assignments = new Map<string, ApiAssignment[]>();
  const missing: string[] = [];
  for (const record of members.values()) {
    if (Array.isArray(record.departmentAssignments)) {
      const inline = record.departmentAssignments.map((item) => withMemberId(item, record.id));
      assignments.set(record.id, parseRecords(inline, assignmentSchema, 'department assignment', logger));
    } else missing.push(record.id);
  }
  for (const ids of chunkForQuery(missing, 'memberId')) {
    const params = new URLSearchParams(ids.map((id): [string, string] => ['memberId', id]));
    params.set('include', 'rank');
    const found = await listPages(executor, '/api/v1/department-assignments', params, { lane, front: true });
    for (const assignment of parseRecords(found, assignmentSchema, 'department assignment', logger)) {
      const list = assignments.get(assignment.memberId) ?? [];
      list.push(assignment);
      assignments.set(assignment.memberId, list);
    }
  }

  const lookups = new Map<string, MemberLookup>();
  for (const [license, record] of members) {
    const own = assignments.get(record.id) ?? [];
    const member = toApiMember(record, Array.isArray(record.departmentAssignments) ? own : undefined);
    lookups.set(license, { member, assignments: own });
  }
  return lookups;
}

// Inline assignments may leave out the member they belong to.
function withMemberId(item: unknown, memberId: string): unknown {
  if (typeof item !== 'object' || item === null || 'memberId' in item) return item;
  return { ...item, memberId };
}
