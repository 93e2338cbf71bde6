import type { MockAssignment, MockMember } from './records';
import type { RosterStore } from './roster-store';

/** An assignment as served, with the related records `include` asked for. */
export function assignmentView(
  assignment: MockAssignment,
  store: RosterStore,
  include: ReadonlySet<string>,
): Record<string, unknown> {
  const view: Record<string, unknown> = { ...assignment };
  if (include.has('rank'))
    view.rank = assignment.rankId === null ? null : (store.rank(assignment.rankId) ?? null);
  if (include.has('department')) {
    view.department = store.data.departments.find((d) => d.id === assignment.departmentId) ?? null;
  }
  if (include.has('member')) {
    const member = store.member(assignment.memberId);
    view.member = member ? { ...member } : null;
  }
  return view;
}

/** A member as served; `departmentAssignments` (rank expanded) only when inlining is on or included. */
export function memberView(member: MockMember, store: RosterStore, inline: boolean): Record<string, unknown> {
  if (!inline) return { ...member };
  const ranks = new Set(['rank']);
  return {
    ...member,
    departmentAssignments: store.assignmentsOf(member.id).map((a) => assignmentView(a, store, ranks)),
  };
}
