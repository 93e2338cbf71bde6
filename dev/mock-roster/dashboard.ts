import { type AuditShape, auditShapeAt, type DashboardChange, shapeEntry } from './audit-shapes';
import type { MemberStatus, MockAssignment, MockDutySession, MockMember, MockRank } from './records';
import type { RosterStore } from './roster-store';

/** The staff member the dashboard's changes are attributed to. */
export const DASHBOARD_ACTOR = { id: 'usr_staff', name: 'Roster Staff' };

/**
 * Changes as a staff member makes them in the dashboard: each one changes the data and writes an
 * audit entry, as the service does for every change, in one of several shapes (`audit-shapes.ts`)
 * chosen per change from the seed. The store's own mutation helpers stay silent, for tests that
 * want a change the audit log does not show.
 */
export class MockDashboard {
  private changes = 0;
  /** The entry the last change wrote, and its shape. */
  last: { entry: Record<string, unknown>; shape: AuditShape } | null = null;

  constructor(private readonly store: RosterStore) {}

  /** The shape the next change's entry takes. */
  get nextShape(): AuditShape {
    return auditShapeAt(this.store.seed, this.changes);
  }

  /** Sets a member's status. */
  setStatus(memberId: string, status: MemberStatus): MockMember {
    const from = this.store.member(memberId)?.status;
    const member = this.store.setMemberStatus(memberId, status);
    if (from !== status)
      this.audit({ kind: 'member', id: memberId, memberId, field: 'status', from, to: status });
    return member;
  }

  /** Sets the rank of a member's assignment in the rank's department. */
  setRank(memberId: string, rankId: string): MockAssignment {
    const rank = this.store.rank(rankId);
    const before = this.store.assignmentsOf(memberId).find((a) => a.departmentId === rank?.departmentId);
    const from = before?.rankId ?? null;
    const assignment = this.store.setMemberRank(memberId, rankId);
    if (from !== rankId) {
      this.audit({
        kind: 'department_assignment',
        id: assignment.id,
        memberId,
        field: 'rankId',
        from,
        to: rankId,
      });
    }
    return assignment;
  }

  /** Renames a rank (a change to the catalog). */
  renameRank(rankId: string, name: string): MockRank {
    const rank = this.store.rank(rankId);
    if (!rank) throw new Error(`mock roster: no rank ${rankId}`);
    const from = rank.name;
    rank.name = name;
    this.audit({ kind: 'rank', id: rankId, memberId: null, field: 'name', from, to: name });
    return rank;
  }

  /** Corrects how long a duty session lasted (its end moves with it). */
  setDutySessionLength(sessionId: string, minutes: number): MockDutySession {
    const from = this.store.dutySession(sessionId)?.stoodDownAt ?? null;
    const session = this.store.setDutySessionLength(sessionId, minutes);
    if (from !== session.stoodDownAt)
      this.audit({
        kind: 'duty_session',
        id: sessionId,
        memberId: session.rosterRef,
        field: 'stoodDownAt',
        from,
        to: session.stoodDownAt,
      });
    return session;
  }

  /** Deletes a duty session (a shift clocked by mistake): the entry shows it marked deleted. */
  deleteDutySession(sessionId: string): void {
    const session = this.store.dutySession(sessionId);
    if (!session || !this.store.removeDutySession(sessionId)) return;
    this.audit({
      kind: 'duty_session',
      id: sessionId,
      memberId: session.rosterRef,
      field: 'deleted',
      from: false,
      to: true,
    });
  }

  private audit(change: DashboardChange): void {
    const shape = this.nextShape;
    this.changes++;
    const entry = this.store.appendEntry(shapeEntry(shape, change, DASHBOARD_ACTOR));
    this.last = { entry, shape };
  }
}
