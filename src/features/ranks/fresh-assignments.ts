import { z } from 'zod';
import type { Lane } from '../../http';
import type { CatalogIndex } from '../../roster/catalog-index';
import { ROSTER_ROUTES } from '../../roster/client';
import { assignmentSchema } from '../../roster/client/record-schemas';
import type { QueryValues } from '../../roster/client/roster-api';
import type { ApiAssignment, Rank } from '../../roster/model';
import { toRank } from './rank-patch';

/** What the roster holds now for the members of a rank change: their assignments and statuses. */
export interface FreshAssignments {
  /** The member's assignment in the department, rank expanded when the service did. */
  assignment(memberId: string, departmentId: string): ApiAssignment | undefined;
  /** The member's status, from an assignment's expanded member; null when no record showed it. */
  status(memberId: string): string | null;
}

export interface FreshReader {
  get(path: string, query: QueryValues, lane: Lane): Promise<unknown>;
}

const includedMember = z.looseObject({
  member: z.looseObject({ id: z.string(), status: z.string() }).nullish().catch(null),
});

/**
 * Reads the assignments of the target and the actor in one request, with the rank and the member
 * expanded (the API document lists both for `include`) and repeated `memberId` ("either value").
 * Sent at once in the write lane: not held for a lookup batch, since a supervisor waits in chat.
 */
export async function readFreshAssignments(
  api: FreshReader,
  memberIds: readonly string[],
): Promise<FreshAssignments> {
  const data = await api.get(
    ROSTER_ROUTES.departmentAssignments,
    { memberId: [...new Set(memberIds)], include: 'rank,member', limit: 100 },
    'write',
  );
  const items = Array.isArray(data) ? data : [];
  const assignments: ApiAssignment[] = [];
  const statuses = new Map<string, string>();
  for (const item of items) {
    const parsed = assignmentSchema.safeParse(item);
    if (!parsed.success) continue;
    assignments.push(parsed.data);
    const member = includedMember.safeParse(item);
    const record = member.success ? member.data.member : null;
    if (record && record.id === parsed.data.memberId) statuses.set(record.id, record.status);
  }
  return {
    assignment: (memberId, departmentId) =>
      assignments.find((a) => a.memberId === memberId && a.departmentId === departmentId),
    status: (memberId) => statuses.get(memberId) ?? null,
  };
}

/** The rank an assignment holds (null: none); undefined when it names a rank not known here. */
export function heldRank(assignment: ApiAssignment, catalog: CatalogIndex): Rank | null | undefined {
  if (assignment.rankId === null) return null;
  const rank = assignment.rank?.id === assignment.rankId ? assignment.rank : catalog.rank(assignment.rankId);
  return rank ? toRank(rank) : undefined;
}
