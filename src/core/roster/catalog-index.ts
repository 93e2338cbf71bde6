import type { ApiDepartment, ApiRank, Catalog } from '../model';

/** Case-insensitive key for matching departments and ranks by id, name or short name. */
export function matchKey(value: string): string {
  return value.trim().toLowerCase();
}

/** The community's departments and ranks, indexed for the lookups exports make on hot paths. */
export class CatalogIndex {
  readonly departments: ReadonlyMap<string, ApiDepartment>;
  private readonly ranksById: ReadonlyMap<string, ApiRank>;
  private readonly departmentsByKey: ReadonlyMap<string, ApiDepartment>;
  private readonly ranksByDepartment: ReadonlyMap<string, ReadonlyMap<string, ApiRank>>;

  constructor(readonly catalog: Catalog = { departments: [], ranks: [] }) {
    this.departments = new Map(catalog.departments.map((d) => [d.id, d]));
    this.ranksById = new Map(catalog.ranks.map((r) => [r.id, r]));
    const byKey = new Map<string, ApiDepartment>();
    for (const department of catalog.departments) {
      for (const key of [department.id, department.name, department.shortName]) {
        if (key && !byKey.has(matchKey(key))) byKey.set(matchKey(key), department);
      }
    }
    this.departmentsByKey = byKey;
    const byDepartment = new Map<string, Map<string, ApiRank>>();
    for (const rank of catalog.ranks) {
      if (rank.departmentId === null) continue;
      const keys = byDepartment.get(rank.departmentId) ?? new Map<string, ApiRank>();
      byDepartment.set(rank.departmentId, keys);
      for (const key of [rank.id, matchKey(rank.id), rank.name, matchKey(rank.name)]) {
        if (!keys.has(key)) keys.set(key, rank);
      }
    }
    this.ranksByDepartment = byDepartment;
  }

  /** A department by id, name or short name, case-insensitively. */
  department(key: string): ApiDepartment | undefined {
    return this.departments.get(key) ?? this.departmentsByKey.get(matchKey(key));
  }

  rank(rankId: string): ApiRank | undefined {
    return this.ranksById.get(rankId);
  }

  /** A rank of one department by id or name, case-insensitively. */
  rankIn(departmentId: string, rank: string): ApiRank | undefined {
    const keys = this.ranksByDepartment.get(departmentId);
    return keys?.get(rank) ?? keys?.get(matchKey(rank));
  }

  /** Ranks of a department, most senior first under the given order. */
  ladder(departmentId: string, order: RankOrder): ApiRank[] {
    const ranks = this.catalog.ranks.filter((r) => r.departmentId === departmentId);
    return ranks.sort((a, b) => (order === 'top-down' ? a.position - b.position : b.position - a.position));
  }
}

export type RankOrder = 'top-down' | 'bottom-up';

/** True when `rank` is `than` or more senior: top-down means a smaller position is more senior. */
export function isAtLeast(rank: number, than: number, order: RankOrder): boolean {
  return order === 'top-down' ? rank <= than : rank >= than;
}
