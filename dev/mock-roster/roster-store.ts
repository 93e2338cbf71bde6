import type {
  MemberStatus,
  MockAssignment,
  MockAuditEntry,
  MockDutySession,
  MockMember,
  MockRank,
} from './records';
import { type CommunityData, licenseFor, memberId, nonMemberLicenseFor } from './seed-community';

/** Fields a test may give when adding a member; the rest are filled in. */
export interface NewMember {
  displayName?: string;
  status?: MemberStatus;
  gameLicense?: string;
  /** Department id and rank id of the (primary) assignment; omitted = no assignment. */
  departmentId?: string;
  rankId?: string | null;
}

/**
 * The community's data plus the look-ups and changes tests need. Handlers read the arrays
 * directly; every change goes through here so records and their `updatedAt` stay consistent.
 */
export class RosterStore {
  /**
   * Called before a list request is answered, with the path and query asked: a test changes the
   * data here to make the change land between two pages of a read. Null: no hook.
   */
  beforeList: ((request: { path: string; query: URLSearchParams }) => void) | null = null;
  private nextMember: number;
  private nextAssignment: number;
  private nextAudit: number;
  private nextDutySession: number;

  constructor(
    readonly data: CommunityData,
    readonly seed: number,
    private readonly now: () => number,
  ) {
    this.nextMember = data.members.length;
    this.nextAssignment = data.assignments.length;
    this.nextAudit = data.auditLogs.length;
    this.nextDutySession = data.dutySessions.length;
  }

  /** License of seeded member `index` (stable for a seed, whether or not the member was removed since). */
  licenseOf(index: number): string {
    return licenseFor(this.seed, index);
  }

  /** A license no member holds. */
  nonMemberLicense(n = 0): string {
    return nonMemberLicenseFor(this.seed, n);
  }

  get members(): readonly MockMember[] {
    return this.data.members;
  }

  member(id: string): MockMember | undefined {
    return this.data.members.find((m) => m.id === id);
  }

  memberByLicense(license: string): MockMember | undefined {
    return this.data.members.find((m) => m.gameLicense === license);
  }

  assignmentsOf(memberId: string): MockAssignment[] {
    return this.data.assignments.filter((a) => a.memberId === memberId);
  }

  /** The first member with at least two assignments (seeded member 0 has three). */
  memberWithSeveralDepartments(): MockMember {
    const found = this.data.members.find((m) => this.assignmentsOf(m.id).length >= 2);
    if (!found) throw new Error('no member with several departments (seed more members)');
    return found;
  }

  /** The first member with the given status (seeded members 0–4 cover every status). */
  memberWithStatus(status: MemberStatus): MockMember {
    const found = this.data.members.find((m) => m.status === status);
    if (!found) throw new Error(`no ${status} member (seed at least 5 members)`);
    return found;
  }

  suspendedMember(): MockMember {
    return this.memberWithStatus('SUSPENDED');
  }

  rank(id: string): MockRank | undefined {
    return this.data.ranks.find((r) => r.id === id);
  }

  /** A rank by department short name (or id) and rank name, case-insensitive. */
  rankByName(department: string, name: string): MockRank {
    const dept = this.data.departments.find(
      (d) => d.id === department || d.shortName.toLowerCase() === department.toLowerCase(),
    );
    const found = this.data.ranks.find(
      (r) => r.departmentId === dept?.id && r.name.toLowerCase() === name.toLowerCase(),
    );
    if (!found) throw new Error(`no rank ${name} in ${department}`);
    return found;
  }

  setMemberStatus(id: string, status: MemberStatus): MockMember {
    const member = this.required(this.member(id), `member ${id}`);
    member.status = status;
    member.updatedAt = this.stamp();
    return member;
  }

  /** Sets the rank of an assignment (by assignment id) without any audit entry, as a dashboard change would. */
  setAssignmentRank(assignmentId: string, rankId: string | null): MockAssignment {
    const assignment = this.required(
      this.data.assignments.find((a) => a.id === assignmentId),
      `assignment ${assignmentId}`,
    );
    assignment.rankId = rankId;
    assignment.updatedAt = this.stamp();
    return assignment;
  }

  /** Sets the rank of a member's assignment in the rank's department. */
  setMemberRank(memberId: string, rankId: string): MockAssignment {
    const rank = this.required(this.rank(rankId), `rank ${rankId}`);
    const assignment = this.assignmentsOf(memberId).find((a) => a.departmentId === rank.departmentId);
    return this.setAssignmentRank(this.required(assignment, `assignment of ${memberId}`).id, rankId);
  }

  /** Removes a member and their assignments, as if they left the community. */
  removeMember(id: string): boolean {
    const before = this.data.members.length;
    this.data.members = this.data.members.filter((m) => m.id !== id);
    this.data.assignments = this.data.assignments.filter((a) => a.memberId !== id);
    return this.data.members.length < before;
  }

  /**
   * A duty session of `memberId` in their primary department from `startedAt` (epoch ms): ended
   * after `minutes`, or still on duty with null. Stored as it began unless `storedAt` says later
   * (a missed clock-in added by staff, a CAD that posts the whole session at clock-out).
   */
  addDutySession(
    memberId: string,
    startedAt: number,
    minutes: number | null,
    options: { storedAt?: number } = {},
  ): MockDutySession {
    const department = this.data.assignments.find((a) => a.memberId === memberId && a.isPrimary);
    const start = new Date(startedAt).toISOString();
    const session: MockDutySession = {
      id: `duty_${String(++this.nextDutySession).padStart(6, '0')}_${memberId}`,
      rosterRef: memberId,
      unitRef: department?.departmentId ?? 'dept_civ',
      startedAt: start,
      stoodDownAt: null,
      onDutySeconds: null,
      createdAt: options.storedAt === undefined ? start : new Date(options.storedAt).toISOString(),
    };
    this.data.dutySessions.push(session);
    return minutes === null ? session : this.setDutySessionLength(session.id, minutes);
  }

  dutySession(id: string): MockDutySession | undefined {
    return this.data.dutySessions.find((s) => s.id === id);
  }

  /** Sets how long a session lasted (its end moves with it), or null to put it back on duty. */
  setDutySessionLength(id: string, minutes: number | null): MockDutySession {
    const session = this.required(this.dutySession(id), `duty session ${id}`);
    session.stoodDownAt =
      minutes === null ? null : new Date(Date.parse(session.startedAt) + minutes * 60_000).toISOString();
    session.onDutySeconds = minutes === null ? null : Math.round(minutes * 60);
    return session;
  }

  /** Deletes a duty session: it is listed no more. */
  removeDutySession(id: string): boolean {
    const before = this.data.dutySessions.length;
    this.data.dutySessions = this.data.dutySessions.filter((s) => s.id !== id);
    return this.data.dutySessions.length < before;
  }

  addMember(input: NewMember = {}): MockMember {
    const index = this.nextMember++;
    const stamp = this.stamp();
    const member: MockMember = {
      id: memberId(index),
      displayName: input.displayName ?? `New Member ${index + 1}`,
      status: input.status ?? 'ACTIVE',
      gameLicense: input.gameLicense ?? this.licenseOf(index),
      discordId: String(200_000_000_000_000_000n + BigInt(index)),
      joinDate: stamp,
      createdAt: stamp,
      updatedAt: stamp,
    };
    this.data.members.push(member);
    if (input.departmentId !== undefined) {
      this.data.assignments.push({
        id: `asg_${String(++this.nextAssignment).padStart(6, '0')}`,
        memberId: member.id,
        departmentId: input.departmentId,
        rankId: input.rankId ?? null,
        isPrimary: true,
        callsign: null,
        createdAt: stamp,
        updatedAt: stamp,
      });
    }
    return member;
  }

  /**
   * A member who left comes back: a new membership (new id, created now) on the license of
   * `formerId`, whose old record stays listed, as the service keeps it. The list shows the new one
   * after the old (its default order), or before it with `listedFirst`.
   */
  rejoin(
    formerId: string,
    input: Omit<NewMember, 'gameLicense'> & { listedFirst?: boolean } = {},
  ): MockMember {
    const former = this.required(this.member(formerId), `member ${formerId}`);
    const { listedFirst, ...fields } = input;
    const member = this.addMember({ ...fields, gameLicense: former.gameLicense });
    if (listedFirst) {
      this.data.members = this.data.members.filter((m) => m !== member);
      this.data.members.splice(this.data.members.indexOf(former), 0, member);
    }
    return member;
  }

  /**
   * Appends an entry of any shape, stamped now unless it brings its own `createdAt`: for tests of
   * readers that must not depend on this mock's field names.
   */
  appendRawAudit(entry: Record<string, unknown>): Record<string, unknown> {
    const record = { createdAt: this.stamp(), ...entry };
    this.data.auditLogs.push(record as unknown as MockAuditEntry);
    return record;
  }

  /** Appends an entry of any shape with the next id, stamped now (as the service writes one). */
  appendEntry(fields: Record<string, unknown>): Record<string, unknown> {
    const record = {
      id: `aud_${String(++this.nextAudit).padStart(6, '0')}`,
      ...fields,
      createdAt: this.stamp(),
    };
    this.data.auditLogs.push(record as unknown as MockAuditEntry);
    return record;
  }

  /**
   * Appends `count` entries as a burst (a bulk change, an import) writes them: stamped one
   * millisecond apart up to now, oldest first. `make(i)` gives each entry's content.
   */
  appendAuditBurst(count: number, make: (i: number) => Record<string, unknown> = () => ({})): void {
    const end = this.now();
    for (let i = 0; i < count; i++) {
      this.data.auditLogs.push({
        id: `aud_${String(++this.nextAudit).padStart(6, '0')}`,
        action: 'member.bulk_update',
        ...make(i),
        createdAt: new Date(end - count + 1 + i).toISOString(),
      } as unknown as MockAuditEntry);
    }
  }

  appendAudit(entry: Omit<MockAuditEntry, 'id' | 'createdAt'>): MockAuditEntry {
    const record: MockAuditEntry = {
      id: `aud_${String(++this.nextAudit).padStart(6, '0')}`,
      ...entry,
      createdAt: this.stamp(),
    };
    this.data.auditLogs.push(record);
    return record;
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  private required<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`mock roster: no ${what}`);
    return value;
  }
}
