import { DASHBOARD_ACTOR } from '../mock-roster/dashboard';
import type { MockAssignment, MockMember } from '../mock-roster/records';
import type { MockRoster } from '../mock-roster/server';

/** The kinds of change a scenario makes while the mirror reads. */
export type ChangeKind = 'suspension' | 'reinstatement' | 'transfer out' | 'transfer in' | 'member deleted';

/**
 * Changes as staff make them in the dashboard, each written to the audit log as the service
 * writes it (stamped now, naming the member and the record): statuses through the mock's own
 * dashboard, and what it does not offer, moving a member between departments (one assignment
 * deleted, one created) and deleting a member.
 */
export class StaffChanges {
  private created = 0;

  constructor(private readonly mock: MockRoster) {}

  setStatus(member: MockMember, status: 'ACTIVE' | 'SUSPENDED'): void {
    this.mock.dashboard.setStatus(member.id, status);
  }

  /** Moves `member` out of every department in `from` into `to`: assignments deleted, one created. */
  transfer(member: MockMember, from: ReadonlySet<string>, to: string): void {
    const store = this.mock.data;
    const leaving = store.assignmentsOf(member.id).filter((a) => from.has(a.departmentId));
    store.data.assignments = store.data.assignments.filter((a) => !leaving.includes(a));
    for (const gone of leaving) this.assignmentEntry('delete', gone);
    const stamp = new Date(Date.now()).toISOString();
    const joined: MockAssignment = {
      id: `asg_moved_${String(++this.created).padStart(4, '0')}`,
      memberId: member.id,
      departmentId: to,
      rankId: null,
      isPrimary: leaving.some((a) => a.isPrimary),
      callsign: null,
      createdAt: stamp,
      updatedAt: stamp,
    };
    store.data.assignments.push(joined);
    this.assignmentEntry('create', joined);
  }

  /** The member leaves the community: their record and assignments are gone. */
  deleteMember(member: MockMember): void {
    this.mock.data.removeMember(member.id);
    this.mock.data.appendEntry({
      action: 'member.delete',
      resourceType: 'member',
      resourceId: member.id,
      changes: { status: { from: member.status, to: null } },
      ...actor(),
    });
  }

  private assignmentEntry(what: 'create' | 'delete', assignment: MockAssignment): void {
    this.mock.data.appendEntry({
      action: `department_assignment.${what}`,
      resourceType: 'department_assignment',
      resourceId: assignment.id,
      changes: {
        memberId: { from: null, to: assignment.memberId },
        departmentId:
          what === 'create'
            ? { from: null, to: assignment.departmentId }
            : {
                from: assignment.departmentId,
                to: null,
              },
      },
      ...actor(),
    });
  }
}

function actor() {
  return {
    source: 'DASHBOARD',
    actorId: DASHBOARD_ACTOR.id,
    actorName: DASHBOARD_ACTOR.name,
    apiKeyId: null,
  };
}
