/**
 * Shapes of roster records as the service sends them (after validation) and as the
 * resource hands them to other scripts. The service may send more fields; only these are relied on.
 */

/** A member record from `GET /api/v1/members`. */
export interface ApiMember {
  id: string;
  status: string;
  /** `license:<40 hex>` as stored by the service. */
  gameLicense: string;
  /** `displayName`, else `name`, else the id. */
  name: string;
  /** When the membership was created, as the service stamped it (tells two memberships of a license apart). */
  createdAt?: string;
  /** Present when the service inlines assignments on member records. */
  departmentAssignments?: ApiAssignment[];
}

/** A record from `GET /api/v1/department-assignments?include=rank`. */
export interface ApiAssignment {
  id: string;
  memberId: string;
  departmentId: string;
  rankId: string | null;
  isPrimary: boolean;
  callsign: string | null;
  rank: ApiRank | null;
}

export interface ApiDepartment {
  id: string;
  name: string;
  shortName: string | null;
  /** When the service says (it may not): tells the older of two departments apart. */
  createdAt?: string | undefined;
}

export interface ApiRank {
  id: string;
  departmentId: string | null;
  name: string;
  position: number;
}

/** What one license lookup learned: the member with their assignments, or nothing on the roster. */
export interface MemberLookup {
  member: ApiMember;
  assignments: ApiAssignment[];
}

/** A member record, with its assignments when the service sent them inline (else `null`). */
export interface MemberFound {
  member: ApiMember;
  assignments: ApiAssignment[] | null;
  /** In the join lane: the assignments, already asked for the moment the member's batch answered. */
  assignmentsAsked?: Promise<ApiAssignment[]>;
}

/** Departments and ranks of the community, loaded once and refreshed rarely. */
export interface Catalog {
  departments: ApiDepartment[];
  ranks: ApiRank[];
}

/** `GET /api/v1/whoami`. */
export interface KeyIdentity {
  community: { id: string | null; name: string };
  scopes: string[];
}

// Shapes handed to other resources (exports, events, state bags).

export interface Rank {
  id: string;
  name: string;
  position: number;
}

export interface Department {
  id: string;
  name: string;
  shortName: string | null;
  primary: boolean;
  callsign: string | null;
  rank: Rank | null;
}

export interface Member {
  id: string;
  name: string;
  status: string;
  license: string;
  departments: Department[];
}
