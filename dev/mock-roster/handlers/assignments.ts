import { ApiError, validationError } from '../api-error';
import type { ListSpec } from '../list-query';
import { listRoute, recordRoute } from '../list-route';
import { type Route, type RouteContext, type RouteResult, scope } from '../route';
import { assignmentView } from '../views';

export const ASSIGNMENT_LIST: ListSpec = {
  filters: ['id', 'memberId', 'departmentId', 'rankId', 'isPrimary', 'callsign'],
  sortable: ['id', 'memberId', 'departmentId', 'callsign', 'createdAt', 'updatedAt'],
  searchable: ['callsign'],
  dates: ['createdAt', 'updatedAt'],
  includes: ['rank', 'member', 'department'],
};

/** PATCH body: only `rankId` is writable; anything else is refused by name. */
async function patchAssignment(ctx: RouteContext): Promise<RouteResult> {
  const { store } = ctx;
  const assignment = store.data.assignments.find((a) => a.id === ctx.params.id);
  if (!assignment) throw new ApiError('not_found', `No department assignment with id ${ctx.params.id}`);
  const body = await ctx.readJson();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError('body', 'must be a JSON object');
  }
  const extra = Object.keys(body).find((k) => k !== 'rankId');
  if (extra !== undefined) throw validationError(extra, 'is not writable');
  const { rankId } = body as { rankId?: unknown };
  if (typeof rankId !== 'string' || rankId === '')
    throw validationError('rankId', 'must be a rank id (string)');
  const rank = store.rank(rankId);
  if (!rank) throw validationError('rankId', `no rank ${rankId} in this community`);
  if (rank.departmentId !== assignment.departmentId) {
    throw validationError('rankId', `rank ${rankId} belongs to another department`);
  }
  if (assignment.rankId !== rankId) {
    const from = assignment.rankId;
    store.setAssignmentRank(assignment.id, rankId);
    const key = ctx.key!;
    // The document: every change made with a key is audited, marked as API, attributed to the key's owner.
    store.appendAudit({
      action: 'department_assignment.update',
      resourceType: 'department_assignment',
      resourceId: assignment.id,
      changes: { rankId: { from, to: rankId } },
      source: 'API',
      actorId: key.owner.id,
      actorName: key.owner.name,
      apiKeyId: key.id,
    });
  }
  return { data: assignmentView(assignment, store, new Set()) };
}

export const assignmentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/api/v1/department-assignments',
    access: scope('roster:read'),
    summary: 'List department assignments (filter memberId; include=rank,member,department)',
    list: ASSIGNMENT_LIST,
    schema: 'DepartmentAssignment',
    handle: listRoute(
      (ctx) => ctx.store.data.assignments,
      ASSIGNMENT_LIST,
      (a, ctx, query) => assignmentView(a, ctx.store, query.include),
    ),
  },
  {
    method: 'GET',
    pattern: '/api/v1/department-assignments/:id',
    access: scope('roster:read'),
    summary: 'One department assignment',
    schema: 'DepartmentAssignment',
    handle: recordRoute('department assignment', (ctx) => ctx.store.data.assignments),
  },
  {
    method: 'PATCH',
    pattern: '/api/v1/department-assignments/:id',
    // The document leaves the exact scope open: either write scope is accepted.
    access: scope('roster:write', 'departments:write'),
    summary: 'Change the rank of an assignment: body {"rankId": "..."}',
    schema: 'DepartmentAssignment',
    handle: patchAssignment,
  },
];
