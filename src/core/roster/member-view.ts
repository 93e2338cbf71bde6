import type { ApiAssignment, Department, Member, MemberLookup } from '../model';
import { type CatalogIndex, keyedByKind, matchKey } from './catalog-index';

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

/** Indexes an already shaped member (e.g. one read back from a snapshot). */
export function viewOf(member: Member, assignments: ReadonlyMap<string, string> = new Map()): MemberView {
  // Keys as written and normalised: the usual exact spelling is found without allocating.
  // Ids before names, so a department named like another's id never shadows it.
  const byKey = keyedByKind(member.departments, [
    (d) => d.id,
    (d) => matchKey(d.id),
    (d) => d.name,
    (d) => matchKey(d.name),
    (d) => d.shortName,
    (d) => (d.shortName ? matchKey(d.shortName) : null),
  ]);
  return {
    member,
    primary: member.departments.find((d) => d.primary) ?? null,
    department: (key) => byKey.get(key) ?? byKey.get(matchKey(key)),
    assignments,
  };
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
