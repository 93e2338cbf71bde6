import { type PrincipalLink, slug } from '../../platform/principal-names';
import type { CatalogIndex, RankOrder } from '../../roster/catalog-index';

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
 * the lowest inherits the department. Names that slug to nothing get no principal. Two departments
 * whose names make one principal: the older keeps it (the one that held it in `previous`, else the
 * earlier `createdAt`, else the one listed first), so a department added on the roster never takes
 * principals away from members who hold them; the newer is named in `problems`. Two ranks of one
 * department sharing a principal both go without: neither is older in a way that matters.
 */
export function buildLadders(
  catalog: CatalogIndex,
  order: RankOrder,
  prefix: string,
  previous?: Ladders,
): Ladders {
  const member = `${prefix}.member`;
  const problems: string[] = [];
  const departments: DepartmentLadder[] = [];
  const byDepartment = new Map<string, string>();
  const byRank = new Map<string, string>();
  const links: PrincipalLink[] = [];

  const candidates = catalog.catalog.departments.map((department) => {
    const fromShort = department.shortName ? slug(department.shortName) : '';
    const label = department.shortName ? `${department.shortName} — ${department.name}` : department.name;
    return { department, label, part: fromShort !== '' ? fromShort : slug(department.name) };
  });
  const owners = ownersByPart(
    candidates,
    (c) => previous?.departmentPrincipal(c.department.id) === `${prefix}.${c.part}`,
  );
  for (const { department, label, part } of candidates) {
    if (part === '') {
      problems.push(`department "${label}" has no letters or digits in its name: it gets no principal.`);
      continue;
    }
    if (part === 'member') {
      problems.push(
        `department "${label}" would be ${prefix}.member, which is every member: rename it (or set a distinct short name) to give it principals.`,
      );
      continue;
    }
    const owner = owners.get(part)!;
    if (owner.department !== department) {
      problems.push(
        `department "${label}" would be ${prefix}.${part}, which the older department "${owner.label}" has: it gets no principal until renamed (or given a distinct short name).`,
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

interface Candidate {
  department: { id: string; createdAt?: string | undefined };
  label: string;
  part: string;
}

/** For each principal part, the department that keeps it: the one that held it, else the oldest. */
function ownersByPart<C extends Candidate>(candidates: C[], held: (c: C) => boolean): Map<string, C> {
  const owners = new Map<string, C>();
  candidates.forEach((candidate) => {
    const owner = owners.get(candidate.part);
    if (owner === undefined || (!held(owner) && (held(candidate) || older(candidate, owner)))) {
      owners.set(candidate.part, candidate);
    }
  });
  return owners;
}

/** A `createdAt` both sides have decides; without one, the department listed first stays older. */
function older(a: Candidate, b: Candidate): boolean {
  const x = a.department.createdAt;
  const y = b.department.createdAt;
  if (x === undefined || y === undefined) return false;
  const at = Date.parse(x);
  const bt = Date.parse(y);
  return Number.isFinite(at) && Number.isFinite(bt) && at < bt;
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
