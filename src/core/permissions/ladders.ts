import type { CatalogIndex, RankOrder } from '../roster/catalog-index';
import { type PrincipalLink, slug } from './principal-names';

/** One department's principals, most senior rank first; the department principal comes last. */
export interface DepartmentLadder {
  id: string;
  /** How the roster names it, for the doctor: `LSPD — Los Santos Police`. */
  label: string;
  principal: string;
  ranks: { id: string; name: string; principal: string }[];
}

/** Principals of the whole catalog, and the inheritance links that make each ladder. */
export interface Ladders {
  member: string;
  departments: DepartmentLadder[];
  links: PrincipalLink[];
  /** Names that cannot become principals, in words an owner can act on. */
  problems: string[];
  departmentPrincipal(departmentId: string): string | undefined;
  rankPrincipal(rankId: string): string | undefined;
}

/**
 * Builds every department's ladder: each rank inherits the rank just below it (in `ranks.order`),
 * the lowest inherits the department. Names that slug to nothing, or that two departments (or two
 * ranks of one department) share, get no principal: sharing one would hand one rank's ACEs to
 * another, so the owner is told to rename instead.
 */
export function buildLadders(catalog: CatalogIndex, order: RankOrder, prefix: string): Ladders {
  const member = `${prefix}.member`;
  const problems: string[] = [];
  const departments: DepartmentLadder[] = [];
  const byDepartment = new Map<string, string>();
  const byRank = new Map<string, string>();
  const links: PrincipalLink[] = [];

  const candidates = catalog.catalog.departments.map((department) => {
    const fromShort = department.shortName ? slug(department.shortName) : '';
    return { department, part: fromShort !== '' ? fromShort : slug(department.name) };
  });
  const counts = countBy(candidates.map((c) => c.part));
  for (const { department, part } of candidates) {
    const label = department.shortName ? `${department.shortName} — ${department.name}` : department.name;
    if (part === '') {
      problems.push(`department "${label}" has no letters or digits in its name: it gets no principal.`);
      continue;
    }
    if (part === 'member' || (counts.get(part) ?? 0) > 1) {
      problems.push(
        `department "${label}" would be ${prefix}.${part}, which ${part === 'member' ? 'is every member' : 'another department also gets'}: rename one (or set a distinct short name) to give it principals.`,
      );
      continue;
    }
    const principal = `${prefix}.${part}`;
    byDepartment.set(department.id, principal);
    const ladder = catalog.ladder(department.id, order);
    const rankCounts = countBy(ladder.map((r) => slug(r.name)));
    const ranks: DepartmentLadder['ranks'] = [];
    for (const rank of ladder) {
      const rankPart = slug(rank.name);
      if (rankPart === '' || (rankCounts.get(rankPart) ?? 0) > 1) {
        problems.push(
          `rank "${rank.name}" of ${label} ${rankPart === '' ? 'has no letters or digits in its name' : `shares ${principal}.${rankPart} with another rank there`}: it gets no principal until renamed.`,
        );
        continue;
      }
      ranks.push({ id: rank.id, name: rank.name, principal: `${principal}.${rankPart}` });
      byRank.set(rank.id, `${principal}.${rankPart}`);
    }
    // Most senior first: each inherits the next one down, the lowest the department.
    ranks.forEach((rank, index) => {
      links.push({ child: rank.principal, parent: ranks[index + 1]?.principal ?? principal });
    });
    departments.push({ id: department.id, label, principal, ranks });
  }
  return {
    member,
    departments,
    links,
    problems,
    departmentPrincipal: (id) => byDepartment.get(id),
    rankPrincipal: (id) => byRank.get(id),
  };
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
