/** Record shapes the mock serves. Field names follow the API document and the fields the resource relies on beyond it. */

export const MEMBER_STATUSES = ['ACTIVE', 'SUSPENDED', 'LOA', 'INACTIVE', 'TERMINATED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export interface MockCommunity {
  id: string;
  name: string;
  plan: 'PROFESSIONAL' | 'STARTER';
  /** False makes every keyed request fail with `plan_required`. */
  planActive: boolean;
}

export interface MockDepartment {
  id: string;
  name: string;
  shortName: string;
  createdAt: string;
}

export interface MockRank {
  id: string;
  departmentId: string;
  name: string;
  /** 1 is the most senior rank of its department. */
  position: number;
  createdAt: string;
}

export interface MockMember {
  id: string;
  displayName: string;
  status: MemberStatus;
  /** `license:` followed by 40 lowercase hex digits. */
  gameLicense: string;
  discordId: string;
  joinDate: string;
  createdAt: string;
  updatedAt: string;
}

export interface MockAssignment {
  id: string;
  memberId: string;
  departmentId: string;
  rankId: string | null;
  isPrimary: boolean;
  callsign: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A duty session. The API document names only `startedAt`; the other names are this mock's own,
 * chosen so a client cannot guess them and must read them from the OpenAPI description.
 */
export interface MockDutySession {
  id: string;
  /** The member on duty (a member id). */
  rosterRef: string;
  /** The department (a department id). */
  unitRef: string;
  startedAt: string;
  /** When the member went off duty; null while on duty. */
  stoodDownAt: string | null;
  /** Whole seconds on duty; null while on duty. */
  onDutySeconds: number | null;
  createdAt: string;
}

/**
 * An audit entry of a change made with a key. Dashboard changes take other shapes
 * (`audit-shapes.ts`) and `appendRawAudit` any: only `id` and `createdAt` are common to all.
 */
export interface MockAuditEntry {
  id: string;
  action: string;
  resourceType: string;
  resourceId: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** `API` for changes made with a key, `DASHBOARD` for the seeded history. */
  source: 'API' | 'DASHBOARD';
  actorId: string;
  actorName: string;
  apiKeyId: string | null;
  createdAt: string;
}
