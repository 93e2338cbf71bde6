import type { ApiDepartment, ApiRank, Catalog } from './model';

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
    this.departmentsByKey = keyedByKind(catalog.departments, [
      (d) => matchKey(d.id),
      (d) => matchKey(d.name),
      (d) => (d.shortName ? matchKey(d.shortName) : null),
    ]);
    const ranksOf = new Map<string, ApiRank[]>();
    for (const rank of catalog.ranks) {
      if (rank.departmentId === null) continue;
      ranksOf.set(rank.departmentId, [...(ranksOf.get(rank.departmentId) ?? []), rank]);
    }
    const byDepartment = new Map<string, ReadonlyMap<string, ApiRank>>();
    for (const [departmentId, ranks] of ranksOf) {
      byDepartment.set(
        departmentId,
        keyedByKind(ranks, [(r) => r.id, (r) => matchKey(r.id), (r) => r.name, (r) => matchKey(r.name)]),
      );
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

/**
 * Items by key, one kind of key at a time: every item's id is placed before any item's name, so a
 * rank named like another rank's id never shadows that id. Within a kind, the first item wins.
 */
export function keyedByKind<T>(
  items: readonly T[],
  kinds: readonly ((item: T) => string | null | undefined)[],
): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const keyOf of kinds) {
    for (const item of items) {
      const key = keyOf(item);
      if (key && !byKey.has(key)) byKey.set(key, item);
    }
  }
  return byKey;
}

export type RankOrder = 'top-down' | 'bottom-up';

/** True when `rank` is `than` or more senior: top-down means a smaller position is more senior. */
export function isAtLeast(rank: number, than: number, order: RankOrder): boolean {
  return order === 'top-down' ? rank <= than : rank >= than;
}
