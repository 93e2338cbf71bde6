import { type CatalogIndex, matchKey } from './catalog-index';
import type { ApiAssignment, Department, Member, MemberLookup } from './model';

/**
 * A member as other resources see it, with its departments indexed by id, name and short name
 * so synchronous exports answer without scanning.
 */
export interface MemberView {
  readonly member: Member;
  readonly primary: Department | null;
  department(key: string): Department | undefined;
  /**
   * Assignment id by department id, as far as known (a record read back from the snapshot knows
   * none): what a rank change is sent to, and what ties an audit entry to this member.
   */
  readonly assignments: ReadonlyMap<string, string>;
}

export function toMemberView(lookup: MemberLookup, catalog: CatalogIndex): MemberView {
  const { member: record } = lookup;
  const own = lookup.assignments.filter((a) => a.memberId === record.id);
  const departments = own.map((a) => toDepartment(a, catalog));
  if (departments.length > 0 && !departments.some((d) => d.primary)) departments[0]!.primary = true;
  const member: Member = {
    id: record.id,
    name: record.name,
    status: record.status,
    license: record.gameLicense,
    departments,
  };
  return viewOf(member, new Map(own.map((a) => [a.departmentId, a.id])));
}

const NO_ASSIGNMENTS: ReadonlyMap<string, string> = new Map();

/** Shapes an already shaped member's view (e.g. one read back from a snapshot). */
export function viewOf(
  member: Member,
  assignments: ReadonlyMap<string, string> = NO_ASSIGNMENTS,
): MemberView {
  return new IndexedView(member, assignments.size === 0 ? NO_ASSIGNMENTS : assignments);
}

/**
 * No per-member key map: a member has one to three departments, so comparing the key with each
 * one's id, name and short name is as quick as a map lookup, and tens of thousands of cached
 * members stay small. The exact spelling scripts usually pass matches without allocating.
 */
class IndexedView implements MemberView {
  readonly primary: Department | null;

  constructor(
    readonly member: Member,
    readonly assignments: ReadonlyMap<string, string>,
  ) {
    this.primary = member.departments.find((d) => d.primary) ?? null;
  }

  department(key: string): Department | undefined {
    const departments = this.member.departments;
    // Ids first, then names and short names: a name never shadows another department's id.
    for (const d of departments) if (d.id === key) return d;
    for (const d of departments) if (d.name === key || d.shortName === key) return d;
    const wanted = matchKey(key);
    for (const d of departments) if (matchKey(d.id) === wanted) return d;
    for (const d of departments) {
      if (matchKey(d.name) === wanted || (d.shortName !== null && matchKey(d.shortName) === wanted)) return d;
    }
    return undefined;
  }
}

function toDepartment(assignment: ApiAssignment, catalog: CatalogIndex): Department {
  const known = catalog.departments.get(assignment.departmentId);
  const rank = assignment.rank ?? (assignment.rankId ? catalog.rank(assignment.rankId) : undefined);
  return {
    id: assignment.departmentId,
    name: known?.name ?? assignment.departmentId,
    shortName: known?.shortName ?? null,
    primary: assignment.isPrimary,
    callsign: assignment.callsign,
    rank: rank ? { id: rank.id, name: rank.name, position: rank.position } : null,
  };
}

/** True when two members differ in what other resources act on: status, departments or ranks. */
export function memberChanged(before: Member | null, after: Member | null): boolean {
  if (before === null || after === null) return before !== after;
  return before.status !== after.status || signature(before) !== signature(after);
}

function signature(member: Member): string {
  return member.departments
    .map(
      (d) =>
        `${d.id}:${d.name}:${d.shortName ?? ''}:${d.rank?.id ?? '-'}:${d.rank?.name ?? ''}:${d.rank?.position ?? '-'}:${d.primary ? 'p' : ''}:${d.callsign ?? ''}`,
    )
    .sort()
    .join('|');
}
