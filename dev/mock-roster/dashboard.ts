import type { MemberStatus, MockAssignment, MockMember, MockRank } from './records';
import type { RosterStore } from './roster-store';

/** The staff member the dashboard's changes are attributed to. */
export const DASHBOARD_ACTOR = { id: 'usr_staff', name: 'Roster Staff' };

/**
 * Changes as a staff member makes them in the dashboard: each one changes the data and writes an
 * audit entry (`source: 'DASHBOARD'`), as the service does for every change. The store's own
 * mutation helpers stay silent, for tests that want a change the audit log does not show.
 */
export class MockDashboard {
  constructor(private readonly store: RosterStore) {}

  /** Sets a member's status. */
  setStatus(memberId: string, status: MemberStatus): MockMember {
    const from = this.store.member(memberId)?.status;
    const member = this.store.setMemberStatus(memberId, status);
    if (from !== status) {
      this.audit('member.update', 'member', memberId, { status: { from, to: status } });
    }
    return member;
  }

  /** Sets the rank of a member's assignment in the rank's department. */
  setRank(memberId: string, rankId: string): MockAssignment {
    const rank = this.store.rank(rankId);
    const before = this.store.assignmentsOf(memberId).find((a) => a.departmentId === rank?.departmentId);
    const from = before?.rankId ?? null;
    const assignment = this.store.setMemberRank(memberId, rankId);
    if (from !== rankId) {
      this.audit('department_assignment.update', 'department_assignment', assignment.id, {
        rankId: { from, to: rankId },
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
    this.audit('rank.update', 'rank', rankId, { name: { from, to: name } });
    return rank;
  }

  private audit(
    action: string,
    resourceType: string,
    resourceId: string,
    changes: Record<string, { from: unknown; to: unknown }>,
  ): void {
    this.store.appendAudit({
      action,
      resourceType,
      resourceId,
      changes,
      source: 'DASHBOARD',
      actorId: DASHBOARD_ACTOR.id,
      actorName: DASHBOARD_ACTOR.name,
      apiKeyId: null,
    });
  }
}
