import { statusAdmits } from '../../roster/member-status';
import type { MemberView } from '../../roster/member-view';

export type RosterVerdict =
  | { allow: true }
  | { allow: false; reason: 'not_on_roster' }
  | { allow: false; reason: 'status'; status: string }
  | { allow: false; reason: 'department' };

export interface GateRules {
  requireStatus: readonly string[];
  /** Department ids, names or short names; empty means any. */
  departments: readonly string[];
}

/** Decides a join from a member record the service has given (or `null`: not on the roster). */
export function rosterVerdict(view: MemberView | null, rules: GateRules): RosterVerdict {
  if (view === null) return { allow: false, reason: 'not_on_roster' };
  const status = view.member.status;
  if (!statusAdmits(rules.requireStatus)(status)) {
    return { allow: false, reason: 'status', status };
  }
  if (rules.departments.length > 0 && !rules.departments.some((d) => view.department(d) !== undefined)) {
    return { allow: false, reason: 'department' };
  }
  return { allow: true };
}
