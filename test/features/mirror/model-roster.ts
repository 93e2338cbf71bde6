import { DecisionTimeline, type GateRules, newestMembership, type Outcome } from './model-decisions';
import { auditEntry, type EntryStyle, PLAIN } from './model-entries';
import type { Row } from './model-lists';
import { oneOf, type Random, seededRandom } from './model-random';

/**
 * The model service's data: departments, ranks, members, department assignments and the audit
 * log. Every change is made as the dashboard makes it, and writes the audit entries the real
 * service would (naming the record changed and the member it belongs to), stamped on the
 * service's clock unless the change says otherwise (a node with a fast or slow clock, an entry
 * the resource cannot read). Its decisions (model-decisions.ts) are what the mirror is judged against.
 */

export interface RosterSetup {
  members: number;
  /** Licenses that also hold an old TERMINATED membership, created long before their current one. */
  rejoined: number;
  /** 0..1: how often a member shares the previous one's `createdAt` (a bulk import). */
  ties: number;
  seed: number;
}

export const STATUSES = ['ACTIVE', 'SUSPENDED', 'LOA', 'INACTIVE', 'TERMINATED'] as const;

export const DEPARTMENTS = [
  { id: 'dep_lspd', name: 'Los Santos Police Department', shortName: 'LSPD' },
  { id: 'dep_bcso', name: "Blaine County Sheriff's Office", shortName: 'BCSO' },
  { id: 'dep_safr', name: 'San Andreas Fire Rescue', shortName: 'SAFR' },
] as const;

const RANK_NAMES = ['Chief', 'Sergeant', 'Officer'];
const DAY_MS = 86_400_000;

export class ModelRoster {
  readonly departments: Row[];
  readonly ranks: Row[];
  readonly members: Row[] = [];
  readonly assignments: Row[] = [];
  readonly entries: Row[] = [];
  /** Every change made, in this server's time, for reports. */
  readonly changes: { at: number; what: string }[] = [];
  /** Licenses a change concerned (the ones worth probing during the run). */
  readonly touched = new Set<string>();
  private readonly decisions: DecisionTimeline;
  private readonly shared = new Set<string>();
  private readonly random: Random;
  private next = 0;
  private nextLicense = 0;

  constructor(
    /** The service's own time (epoch ms): what it stamps records and entries with. */
    private readonly serviceNow: () => number,
    /** This server's time: when a decision changed, for the bounds the mirror is held to. */
    private readonly serverNow: () => number,
    rules: GateRules,
    setup: RosterSetup,
  ) {
    this.random = seededRandom(setup.seed);
    this.decisions = new DecisionTimeline(
      rules,
      new Map(DEPARTMENTS.map((d) => [d.id, [d.id, d.name, d.shortName]])),
    );
    const long = serviceNow() - 400 * DAY_MS;
    this.departments = DEPARTMENTS.map((d) => this.row({ ...d }, long));
    this.ranks = DEPARTMENTS.flatMap((d) =>
      RANK_NAMES.map((name, i) =>
        this.row({ id: `${d.id}_r${i + 1}`, departmentId: d.id, name, position: i + 1 }, long),
      ),
    );
    this.seed(setup);
  }

  /** Licenses worth asking about: every one ever on the roster, and two never on it. */
  licenses(): string[] {
    const all = new Set(this.members.map((m) => String(m.gameLicense)));
    for (const license of this.decisions.licenses()) all.add(license);
    return [...all];
  }

  /** The decision the data gives now. */
  expected(license: string): Outcome {
    return this.decisions.now(license);
  }

  /** Every decision a record read at some moment in [from, to] (this server's time) can give. */
  outcomesDuring(license: string, from: number, to: number): Set<Outcome> {
    return this.decisions.during(license, from, to);
  }

  /** Whether more than one member has held `license` at some time. */
  sharedLicense(license: string): boolean {
    return this.shared.has(license);
  }

  /** The memberships of `license` now, for reports: `mem_000004 ACTIVE, mem_000001 TERMINATED`. */
  membershipsOf(license: string): string {
    const held = this.members.filter((m) => m.gameLicense === license);
    if (held.length === 0) return 'no member';
    return held
      .map((m) => {
        const departments = this.assignments.filter((a) => a.memberId === m.id).map((a) => a.departmentId);
        return `${m.id} ${String(m.status)} in ${departments.join('+') || 'no department'}`;
      })
      .join(', ');
  }

  // Changes, as the dashboard makes them. `pick` chooses a member among those on the roster now.

  setStatus(pick: number, status: string, style: EntryStyle = PLAIN): void {
    const member = this.pick(pick);
    if (!member || member.status === status) return;
    const from = member.status;
    member.status = status;
    member.updatedAt = this.serviceNow();
    this.log('member.update', member, member, { status: { from, to: status } }, style);
    this.changed(member, `${member.id} ${from} → ${status}`, style);
  }

  /** Moves a member out of one department into another: one assignment deleted, one created. */
  transfer(pick: number, to: number, style: EntryStyle = PLAIN): void {
    const member = this.pick(pick);
    if (!member) return;
    const department = DEPARTMENTS[to % DEPARTMENTS.length]!;
    const own = this.assignments.filter((a) => a.memberId === member.id);
    const leaving = own.find((a) => a.departmentId !== department.id);
    if (!leaving) return;
    this.removeAssignment(leaving, member, style);
    if (!own.some((a) => a.departmentId === department.id))
      this.createAssignment(member, department.id, leaving.isPrimary === true, style);
    this.changed(member, `${member.id} moved ${leaving.departmentId} → ${department.id}`, style);
  }

  dropAssignment(pick: number, style: EntryStyle = PLAIN): void {
    const member = this.pick(pick);
    const assignment = member && this.assignments.find((a) => a.memberId === member.id);
    if (!member || !assignment) return;
    this.removeAssignment(assignment, member, style);
    this.changed(member, `${member.id} left ${assignment.departmentId}`, style);
  }

  addAssignment(pick: number, to: number, style: EntryStyle = PLAIN): void {
    const member = this.pick(pick);
    const department = DEPARTMENTS[to % DEPARTMENTS.length]!;
    if (!member || this.assignments.some((a) => a.memberId === member.id && a.departmentId === department.id))
      return;
    const primary = !this.assignments.some((a) => a.memberId === member.id);
    this.createAssignment(member, department.id, primary, style);
    this.changed(member, `${member.id} joined ${department.id}`, style);
  }

  /** A new player is added to the roster (invite, application): a license not seen before. */
  addMember(status: string, to: number, style: EntryStyle = PLAIN): void {
    const member = this.createMember(this.newLicense(), status, this.serviceNow(), style);
    this.createAssignment(member, DEPARTMENTS[to % DEPARTMENTS.length]!.id, true, style);
    this.changed(member, `${member.id} added (${status}) with ${String(member.gameLicense)}`, style);
  }

  /**
   * A member leaves and comes back: the old membership is TERMINATED and a new, ACTIVE one is
   * created for the same license. The service then lists that license twice.
   */
  rejoin(pick: number, style: EntryStyle = PLAIN): void {
    const old = this.pick(pick);
    if (!old) return;
    const license = String(old.gameLicense);
    if (newestMembership(license, this.members) !== old) return;
    if (old.status !== 'TERMINATED') {
      const from = old.status;
      old.status = 'TERMINATED';
      old.updatedAt = this.serviceNow();
      this.log('member.update', old, old, { status: { from, to: 'TERMINATED' } }, style);
    }
    const member = this.createMember(license, 'ACTIVE', this.serviceNow() + 1, style);
    const department = this.assignments.find((a) => a.memberId === old.id)?.departmentId;
    this.createAssignment(member, String(department ?? DEPARTMENTS[0].id), true, style);
    this.changed(member, `${old.id} TERMINATED, ${member.id} created for the same license`, style);
  }

  /** A member is deleted from the roster with their assignments. */
  removeMember(pick: number, style: EntryStyle = PLAIN): void {
    const member = this.pick(pick);
    if (!member) return;
    this.members.splice(this.members.indexOf(member), 1);
    for (let i = this.assignments.length - 1; i >= 0; i--)
      if (this.assignments[i]!.memberId === member.id) this.assignments.splice(i, 1);
    this.log('member.delete', member, member, {}, style);
    this.changed(member, `${member.id} deleted`, style);
  }

  private seed(setup: RosterSetup): void {
    const random = this.random;
    const start = this.serviceNow() - 300 * DAY_MS;
    let stamp = start;
    const old = Math.min(setup.rejoined, setup.members);
    for (let i = 0; i < setup.members; i++) {
      // A bulk import stamps several members alike; otherwise an hour or so apart.
      if (i === 0 || random() >= setup.ties) stamp += 1 + Math.floor(random() * 3_600_000);
      const license = this.newLicense();
      if (i < old) {
        const before = this.createMember(license, 'TERMINATED', start - DAY_MS * (i + 1), null);
        this.createAssignment(before, oneOf(random, DEPARTMENTS).id, true, null, start - DAY_MS * (i + 1));
      }
      const status = random() < 0.75 ? 'ACTIVE' : oneOf(random, STATUSES);
      const member = this.createMember(license, i < old ? 'ACTIVE' : status, stamp, null);
      const first = oneOf(random, DEPARTMENTS).id;
      this.createAssignment(member, first, true, null, stamp);
      if (random() < 0.25) {
        const second = oneOf(random, DEPARTMENTS).id;
        if (second !== first) this.createAssignment(member, second, false, null, stamp);
      }
    }
    for (const license of this.licenses()) this.note(license);
    // Two licenses that never join the roster.
    for (let i = 0; i < 2; i++) this.note(this.newLicense());
  }

  private pick(pick: number): Row | undefined {
    if (this.members.length === 0) return undefined;
    return this.members[pick % this.members.length];
  }

  private newLicense(): string {
    return `license:${(0xa0000 + this.nextLicense++).toString(16).padStart(40, '0')}`;
  }

  private id(prefix: string): string {
    return `${prefix}_${String(++this.next).padStart(6, '0')}`;
  }

  private row(fields: Record<string, unknown> & { id: string }, createdAt: number): Row {
    return { ...fields, createdAt, updatedAt: createdAt, tie: this.random() };
  }

  private createMember(license: string, status: string, createdAt: number, style: EntryStyle | null): Row {
    const id = this.id('mem');
    const member = this.row(
      { id, gameLicense: license, status, displayName: `Member ${id.slice(4)}`, joinDate: createdAt },
      createdAt,
    );
    if (this.members.some((m) => m.gameLicense === license)) this.shared.add(license);
    this.members.push(member);
    if (style) this.log('member.create', member, member, { status: { from: null, to: status } }, style);
    return member;
  }

  private createAssignment(
    member: Row,
    departmentId: string,
    isPrimary: boolean,
    style: EntryStyle | null,
    createdAt = this.serviceNow(),
  ): Row {
    const assignment = this.row(
      {
        id: this.id('asg'),
        memberId: member.id,
        departmentId,
        rankId: `${departmentId}_r${1 + Math.floor(this.random() * RANK_NAMES.length)}`,
        isPrimary,
        callsign: departmentId === 'dep_safr' ? null : `${1 + Math.floor(this.random() * 9)}-A-${this.next}`,
      },
      createdAt,
    );
    this.assignments.push(assignment);
    if (style) this.log('department_assignment.create', assignment, member, { departmentId }, style);
    return assignment;
  }

  private removeAssignment(assignment: Row, member: Row, style: EntryStyle): void {
    this.assignments.splice(this.assignments.indexOf(assignment), 1);
    this.log(
      'department_assignment.delete',
      assignment,
      member,
      { departmentId: assignment.departmentId },
      style,
    );
  }

  private log(
    action: string,
    record: Row,
    member: Row,
    changes: Record<string, unknown>,
    style: EntryStyle,
  ): void {
    const id = this.id('log');
    const stamp = this.serviceNow() + style.skewMs;
    this.entries.push(
      auditEntry({ id, action, record, member, changes, stamp, tie: this.random(), shape: this.next }, style),
    );
  }

  private changed(member: Row, what: string, style: EntryStyle): void {
    const license = String(member.gameLicense);
    this.touched.add(license);
    const how = [
      style.skewMs !== 0 ? `entry stamped ${Math.round(style.skewMs / 1000)} s off` : '',
      style.unreadable ? 'entry unreadable' : '',
    ].filter(Boolean);
    this.changes.push({ at: this.serverNow(), what: how.length > 0 ? `${what} (${how.join(', ')})` : what });
    this.note(license);
  }

  private note(license: string): void {
    this.decisions.note(license, this.members, this.assignments, this.serverNow());
  }
}
