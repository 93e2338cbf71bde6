import type { CatalogIndex } from '../../roster/catalog-index';

/** `training.departmentCourses` read against the roster's departments. */
export interface ResolvedRequirements {
  /** Department id → the courses `isQualified` requires there. */
  readonly byDepartmentId: ReadonlyMap<string, readonly string[]>;
  /** Keys that name no department: a typo, or a department that was removed. */
  readonly unmatched: readonly string[];
}

/**
 * Resolves `training.departmentCourses` keys (id, name or short name) to departments once per
 * catalog. A key that matches no department cannot be told apart from a typo of a real one
 * ("LSPDD"), so while any key is unmatched the requirements count as unknown and `isQualified`
 * fails closed rather than passing officers the owner meant to hold back.
 */
export class DepartmentRequirements {
  private memo: { catalog: CatalogIndex; resolved: ResolvedRequirements } | undefined;

  private readonly named = new Set<string>();

  /**
   * `onUnmatched` hears each unmatched key once, from whichever use first reads the departments
   * (start, a catalog reload, `isQualified` after departments loaded late), so a typo is always said.
   */
  constructor(
    private readonly departmentCourses: Readonly<Record<string, readonly string[]>>,
    private readonly onUnmatched: (key: string) => void = () => {},
  ) {}

  get configured(): boolean {
    return Object.keys(this.departmentCourses).length > 0;
  }

  resolve(catalog: CatalogIndex): ResolvedRequirements {
    if (this.memo?.catalog === catalog) return this.memo.resolved;
    const byDepartmentId = new Map<string, string[]>();
    const unmatched: string[] = [];
    for (const [key, courses] of Object.entries(this.departmentCourses)) {
      const department = catalog.department(key);
      if (!department) {
        unmatched.push(key);
        continue;
      }
      byDepartmentId.set(department.id, [...(byDepartmentId.get(department.id) ?? []), ...courses]);
    }
    const resolved = { byDepartmentId, unmatched };
    this.memo = { catalog, resolved };
    if (catalog.departments.size > 0)
      for (const key of unmatched) {
        if (this.named.has(key)) continue;
        this.named.add(key);
        this.onUnmatched(key);
      }
    return resolved;
  }

  /** The courses required in a department, or `null` when the requirements cannot be known. */
  coursesFor(catalog: CatalogIndex | undefined, departmentId: string): readonly string[] | null {
    if (!this.configured) return [];
    if (catalog === undefined || catalog.departments.size === 0) return null;
    const resolved = this.resolve(catalog);
    if (resolved.unmatched.length > 0) return null;
    return resolved.byDepartmentId.get(departmentId) ?? [];
  }
}

/** The line that names a key of `training.departmentCourses` matching no department. */
export function unmatchedDepartmentLine(key: string): string {
  return `training.departmentCourses has "${key}", which is no department of the roster (id, name or short name): isQualified answers false for every department until it is fixed.`;
}
