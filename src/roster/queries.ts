import { type CatalogIndex, isAtLeast, matchKey, type RankOrder } from './catalog-index';
import { statusAdmits } from './member-status';
import type { MemberView } from './member-view';
import type { Rank } from './model';

/** Answers the questions other resources ask about one member; every answer comes from memory. */
export class RosterQueries {
  private readonly admits: (status: string) => boolean;

  constructor(
    requireStatus: readonly string[],
    private readonly order: RankOrder,
    private readonly catalog: () => CatalogIndex,
  ) {
    this.admits = statusAdmits(requireStatus);
  }

  isOnRoster(view: MemberView | undefined): boolean {
    return view !== undefined && this.admits(view.member.status);
  }

  isInDepartment(view: MemberView | undefined, department: string): boolean {
    return view?.department(department) !== undefined;
  }

  rank(view: MemberView | undefined, department?: string): Rank | null {
    if (!view) return null;
    const held = department === undefined ? view.primary : view.department(department);
    return held?.rank ?? null;
  }

  hasRank(view: MemberView | undefined, department: string, rank: string): boolean {
    const heldDepartment = view?.department(department);
    const held = heldDepartment?.rank;
    if (!held) return false;
    // Ids before names: a key the catalog resolves to a rank is that rank, whatever another is named.
    const known = this.catalog().rankIn(heldDepartment.id, rank);
    if (known) return known.id === held.id;
    if (held.id === rank || held.name === rank) return true;
    const key = matchKey(rank);
    return matchKey(held.id) === key || matchKey(held.name) === key;
  }

  /** That rank or a more senior one in the department, by the rank ladder of the catalog. */
  hasMinRank(view: MemberView | undefined, department: string, rank: string): boolean {
    const held = view?.department(department);
    if (!held?.rank) return false;
    const target = this.catalog().rankIn(held.id, rank);
    if (!target) return this.hasRank(view, department, rank);
    return isAtLeast(held.rank.position, target.position, this.order);
  }
}
