import type { Member } from '../../roster/model';
import type { Ladders } from './ladders';

/**
 * The principals a member holds: every admitted member (status in `gate.requireStatus`) has the
 * member principal, plus each known department's and the held rank's. Names come from the ladders
 * (the catalog), never from the member record, so a department the catalog does not list gives none.
 */
export function memberPrincipals(
  member: Member | null,
  ladders: Ladders,
  admits: (status: string) => boolean,
): string[] {
  if (member === null || !admits(member.status)) return [];
  const principals = new Set([ladders.member]);
  for (const department of member.departments) {
    const principal = ladders.departmentPrincipal(department.id);
    if (principal === undefined) continue;
    principals.add(principal);
    const rank = department.rank ? ladders.rankPrincipal(department.rank.id) : undefined;
    if (rank !== undefined) principals.add(rank);
  }
  return [...principals];
}
