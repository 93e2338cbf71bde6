import type { CatalogIndex } from '../../roster/catalog-index';
import type { ApiAssignment, ApiMember, ApiRank, MemberLookup } from '../../roster/model';
import { isNewerMembership, type Membership } from '../../roster/newest-membership';

/**
 * One assignment as the mirror keeps it: ids only (department and rank names come from the
 * catalog when a view is shaped, so a renamed rank needs no re-read), the member implied.
 */
export interface MirroredAssignment {
  readonly id: string;
  readonly departmentId: string;
  readonly rankId: string | null;
  readonly isPrimary: boolean;
  readonly callsign: string | null;
  /** The rank as the service expanded it, shared between members; used when the catalog lacks it. */
  readonly rank: ApiRank | null;
}

/**
 * A member as the mirror keeps it: a few short strings and the assignments, nothing indexed (a
 * `MemberView` with its maps is built only when a join asks), so tens of thousands stay small.
 */
export interface MirroredMember {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  /** As the service stamped it. */
  readonly license: string;
  readonly assignments: readonly MirroredAssignment[];
  /** When the membership was created, as the service stamped it: of two claiming a license, the newer decides. */
  readonly createdAt: string | null;
  /**
   * This server's time the record was read (a full read's: when that read began, as it knows the
   * roster from then on). Set by the mirror as it takes the record; what makes it the newer or
   * the older of two last known records.
   */
  readAt: number;
}

const NO_ASSIGNMENTS: readonly MirroredAssignment[] = Object.freeze([]);

/** The key a license is held under: licenses differ only in case between a player and the service. */
export function licenseKey(license: string): string {
  return license.trim().toLowerCase();
}

/** The compact form of an assignment; `rank` gives the one shared object for an expanded rank. */
export function mirroredAssignment(
  assignment: ApiAssignment,
  rank: (expanded: ApiRank) => ApiRank,
): MirroredAssignment {
  return {
    id: assignment.id,
    departmentId: assignment.departmentId,
    rankId: assignment.rankId,
    isPrimary: assignment.isPrimary,
    callsign: assignment.callsign,
    rank: assignment.rank ? rank(assignment.rank) : null,
  };
}

/** The compact form of a member with their (already compact) assignments. */
export function mirroredMember(
  member: ApiMember,
  assignments: readonly MirroredAssignment[],
): MirroredMember {
  return {
    id: member.id,
    name: member.name,
    status: member.status,
    license: member.gameLicense,
    assignments: assignments.length === 0 ? NO_ASSIGNMENTS : assignments,
    createdAt: member.createdAt ?? null,
    readAt: 0,
  };
}

/** Back to the shape the cache path shapes views from; the catalog's rank wins over the stored one. */
export function lookupOf(member: MirroredMember, catalog: CatalogIndex): MemberLookup {
  return {
    member: {
      id: member.id,
      name: member.name,
      status: member.status,
      gameLicense: member.license,
      ...(member.createdAt === null ? {} : { createdAt: member.createdAt }),
    },
    assignments: member.assignments.map((a) => ({
      id: a.id,
      memberId: member.id,
      departmentId: a.departmentId,
      rankId: a.rankId,
      isPrimary: a.isPrimary,
      callsign: a.callsign,
      rank: a.rankId !== null && catalog.rank(a.rankId) ? null : a.rank,
    })),
  };
}

/**
 * Licenses several members of `members` claim (by `licenseKey`), each with the members claiming
 * it, the most recent membership first: that one decides.
 */
export function sharedLicenses(members: readonly MirroredMember[]): Map<string, MirroredMember[]> {
  const claims = new Map<string, MirroredMember[]>();
  for (const member of members) {
    const key = licenseKey(member.license);
    const held = claims.get(key);
    if (held === undefined) claims.set(key, [member]);
    else if (!held.some((other) => other.id === member.id)) held.push(member);
  }
  const shared = new Map<string, MirroredMember[]>();
  for (const [key, held] of claims) {
    if (held.length < 2) continue;
    shared.set(
      key,
      held.sort((a, b) => (isNewerMembership(membershipOf(a), membershipOf(b)) ? -1 : 1)),
    );
  }
  return shared;
}

/** The member as a membership to compare by `isNewerMembership`. */
export function membershipOf(member: MirroredMember): Membership {
  return member.createdAt === null ? { id: member.id } : { id: member.id, createdAt: member.createdAt };
}

/**
 * Whether two records of one license say the same to a join and a rank check: the membership,
 * its status, and each assignment's department, rank, primary flag and callsign (in any order).
 */
export function sameRecord(a: MirroredMember, b: MirroredMember): boolean {
  if (a.id !== b.id || a.status !== b.status || a.assignments.length !== b.assignments.length) return false;
  const said = (x: MirroredAssignment) =>
    `${x.id}|${x.departmentId}|${x.rankId}|${x.isPrimary}|${x.callsign}`;
  const theirs = new Set(b.assignments.map(said));
  return a.assignments.every((x) => theirs.has(said(x)));
}
