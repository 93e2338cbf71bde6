import type { CatalogIndex } from '../../roster/catalog-index';
import type { MemberView } from '../../roster/member-view';
import type { RosterQueries } from '../../roster/queries';

/** One `queue.priority` rule as config.json gives it. */
export interface PriorityRule {
  department?: string | undefined;
  minRank?: string | undefined;
  power: number;
}

/**
 * Queue priority by department and rank: the power of the first rule a
 * member matches, 0 for none. Only members the gate admits match; a rule with neither a department
 * nor a rank matches every one of them.
 */
export class PriorityRules {
  /** The rules in use: all of them until the catalog is read, then those it can resolve. */
  private active: readonly PriorityRule[];

  constructor(
    readonly configured: readonly PriorityRule[],
    private readonly queries: RosterQueries,
    private readonly admits: (view: MemberView) => boolean,
  ) {
    this.active = configured;
  }

  get rules(): readonly PriorityRule[] {
    return this.active;
  }

  /**
   * Keeps the rules whose department and rank the catalog knows; returns one line per rule left
   * out. A rank without a department must exist in at least one department.
   */
  check(catalog: CatalogIndex): string[] {
    const problems: string[] = [];
    this.active = this.configured.filter((rule, index) => {
      const problem = unknownPart(rule, catalog);
      if (problem) problems.push(`queue.priority[${index}] (${describeRule(rule)}): ${problem}; left out.`);
      return problem === null;
    });
    return problems;
  }

  /** The power of the first matching rule; 0 when none matches or the member is unknown. */
  powerOf(view: MemberView | null | undefined): number {
    return this.matchOf(view)?.power ?? 0;
  }

  /** The first rule `view` matches, or undefined. */
  matchOf(view: MemberView | null | undefined): PriorityRule | undefined {
    if (!view || !this.admits(view)) return undefined;
    return this.active.find((rule) => this.matches(view, rule));
  }

  private matches(view: MemberView, rule: PriorityRule): boolean {
    if (rule.department !== undefined) {
      if (!this.queries.isInDepartment(view, rule.department)) return false;
      return rule.minRank === undefined || this.queries.hasMinRank(view, rule.department, rule.minRank);
    }
    if (rule.minRank === undefined) return true;
    const rank = rule.minRank;
    return view.member.departments.some((d) => this.queries.hasMinRank(view, d.id, rank));
  }
}

/** `LSPD from Sergeant: 50`, as the console and doctor show a rule. */
export function describeRule(rule: PriorityRule): string {
  const who = rule.department ?? 'any department';
  const from = rule.minRank === undefined ? '' : ` from ${rule.minRank}`;
  const scope = rule.department === undefined && rule.minRank === undefined ? 'every admitted member' : who;
  return `${scope}${from}: power ${rule.power}`;
}

function unknownPart(rule: PriorityRule, catalog: CatalogIndex): string | null {
  if (rule.department !== undefined) {
    const department = catalog.department(rule.department);
    if (!department) return `no department "${rule.department}"`;
    if (rule.minRank !== undefined && !catalog.rankIn(department.id, rule.minRank))
      return `${department.shortName ?? department.name} has no rank "${rule.minRank}"`;
    return null;
  }
  if (rule.minRank === undefined) return null;
  const rank = rule.minRank;
  return catalog.catalog.departments.some((d) => catalog.rankIn(d.id, rank))
    ? null
    : `no department has a rank "${rank}"`;
}
