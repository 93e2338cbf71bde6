import type { Row } from './model-lists';

/** What the gate decides for a license: admit, or why it refuses. */
export type Outcome = 'admit' | 'not_on_roster' | 'status' | 'department' | 'unavailable';

export interface GateRules {
  requireStatus: readonly string[];
  /** Department ids, names or short names; empty: any. */
  departments: readonly string[];
}

/** What a department is called, by id, for matching `gate.departments`. */
export type DepartmentNames = ReadonlyMap<string, readonly string[]>;

/** A license's data at one moment: its newest membership, and the departments of each of its members. */
interface LicenseState {
  at: number;
  member: string | null;
  status: string | null;
  departments: Record<string, string[]>;
}

/**
 * Per license, what its data was and since when (this server's time): the join decision it gives
 * now, and every decision a record read within a window of time can give.
 */
export class DecisionTimeline {
  private readonly states = new Map<string, LicenseState[]>();

  constructor(
    private readonly rules: GateRules,
    private readonly names: DepartmentNames,
  ) {}

  /** Licenses noted so far. */
  licenses(): IterableIterator<string> {
    return this.states.keys();
  }

  /** Notes the license's data as it stands at `at` (after a change, or at first). */
  note(license: string, members: readonly Row[], assignments: readonly Row[], at: number): void {
    const timeline = this.states.get(license) ?? [];
    const state = stateOf(license, members, assignments, at);
    const last = timeline.at(-1);
    if (!last || JSON.stringify({ ...last, at: 0 }) !== JSON.stringify({ ...state, at: 0 }))
      timeline.push(state);
    this.states.set(license, timeline);
  }

  /** The decision the data gives now. */
  now(license: string): Outcome {
    const last = this.states.get(license)?.at(-1);
    return last ? this.decide(last, last) : 'not_on_roster';
  }

  /**
   * Every decision a record read at some moment in [from, to] can give. A member's record is two
   * reads (the member, then their assignments), so its status and its departments may each come
   * from a different moment of the window.
   */
  during(license: string, from: number, to: number): Set<Outcome> {
    const timeline = this.states.get(license) ?? [];
    const during = timeline.filter((each, i) => each.at <= to && (timeline[i + 1]?.at ?? Infinity) > from);
    const outcomes = new Set<Outcome>();
    for (const member of during) for (const held of during) outcomes.add(this.decide(member, held));
    return outcomes;
  }

  /** The gate's decision on the newest membership and status of `member`, with the departments of `held`. */
  private decide(member: LicenseState, held: LicenseState): Outcome {
    if (member.member === null || member.status === null) return 'not_on_roster';
    const status = member.status.trim().toLowerCase();
    if (!this.rules.requireStatus.some((s) => s.trim().toLowerCase() === status)) return 'status';
    if (this.rules.departments.length === 0) return 'admit';
    const wanted = new Set(this.rules.departments.map((d) => d.trim().toLowerCase()));
    const inOne = (held.departments[member.member] ?? []).some((id) =>
      (this.names.get(id) ?? []).some((name) => wanted.has(name.toLowerCase())),
    );
    return inOne ? 'admit' : 'department';
  }
}

/** The most recent membership of a license: created last, then the greater id. */
export function newestMembership(license: string, members: readonly Row[]): Row | undefined {
  let newest: Row | undefined;
  for (const member of members) {
    if (member.gameLicense !== license) continue;
    if (
      !newest ||
      member.createdAt > newest.createdAt ||
      (member.createdAt === newest.createdAt && member.id > newest.id)
    )
      newest = member;
  }
  return newest;
}

function stateOf(
  license: string,
  members: readonly Row[],
  assignments: readonly Row[],
  at: number,
): LicenseState {
  const newest = newestMembership(license, members);
  const departments: Record<string, string[]> = {};
  for (const member of members.filter((m) => m.gameLicense === license))
    departments[member.id] = assignments
      .filter((a) => a.memberId === member.id)
      .map((a) => String(a.departmentId))
      .sort();
  return {
    at,
    member: newest ? newest.id : null,
    status: newest ? String(newest.status) : null,
    departments,
  };
}
