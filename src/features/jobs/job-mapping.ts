import { type CatalogIndex, matchKey, type RankOrder } from '../../roster/catalog-index';
import type { ApiDepartment } from '../../roster/model';
import type { FrameworkJob, FrameworkJobs } from './framework-jobs';

/** `jobs.departments` as config.json holds it: department key → job and optional rank → grade. */
export type DepartmentJobsConfig = Readonly<
  Record<string, { readonly job: string; readonly grades?: Readonly<Record<string, number>> | undefined }>
>;

/** How one rank reached its grade, for `roster doctor`. */
export type GradeSource = 'listed' | 'by name' | 'more junior' | 'lowest';

export interface RankGrade {
  rankId: string;
  rank: string;
  /** The rank's position on the roster, as its ranks were read. */
  position: number;
  grade: number;
  source: GradeSource;
}

/** One department's mapping, validated against the framework: every rank has a grade it has. */
export interface DepartmentJob {
  departmentId: string;
  department: string;
  job: string;
  /** Most senior first. */
  ranks: RankGrade[];
  /** The job's lowest grade: a member of a department with no ranks on the roster gets it. */
  lowest: number;
}

/** What the doctor and the console show for one configured department. */
export interface MappingRow {
  key: string;
  job: string;
  ok: boolean;
  /** Why the mapping is left out; empty when `ok`. */
  problems: string[];
  ranks: RankGrade[];
}

export interface JobMapping {
  /** In `jobs.departments` order; only the mappings that passed. */
  departments: DepartmentJob[];
  rows: MappingRow[];
  /** The jobs of the mappings that passed: the only jobs job sync writes, sets back or takes away. */
  managed: ReadonlySet<string>;
  /** Whether `jobs.unassigned` is a job and grade the framework has (or the framework removes groups). */
  unassignedOk: boolean;
  /** Why it is not; null when it is. */
  unassignedProblem: string | null;
}

/**
 * Checks `jobs.departments` against the roster's departments and ranks and the framework's jobs.
 * A department whose job, or one of whose listed grades, the framework does not have is left out
 * whole, with the reason: a mapping is never applied half.
 */
export function resolveJobMapping(
  config: DepartmentJobsConfig,
  catalog: CatalogIndex,
  jobs: FrameworkJobs,
  order: RankOrder,
  unassigned: { job: string; grade: number } | null,
): JobMapping {
  const departments: DepartmentJob[] = [];
  const rows: MappingRow[] = [];
  // The jobs of the mappings in use, by the framework's own spelling ("Police" in config.json is
  // the framework's police, which characters hold). A mapping left out drives nothing: a grade
  // deleted from the framework never takes every member's job away.
  const managed = new Set<string>();
  for (const [key, entry] of Object.entries(config)) {
    const row: MappingRow = { key, job: entry.job, ok: false, problems: [], ranks: [] };
    rows.push(row);
    const department = catalog.department(key);
    const job = jobs.get(entry.job) ?? jobs.get(entry.job.toLowerCase());
    if (!department) row.problems.push(`the roster has no department "${key}"`);
    // The same department under two keys (its id and its name): which job would it be?
    const twice =
      department && rows.find((r) => r !== row && catalog.department(r.key)?.id === department.id);
    if (twice) row.problems.push(`jobs.departments.${twice.key} already maps this department`);
    if (!job) row.problems.push(`the framework has no job "${entry.job}"`);
    else if (job.grades.length === 0) row.problems.push(`job "${entry.job}" has no grades`);
    if (!department || !job || job.grades.length === 0) continue;
    row.ranks = rankGrades(department, entry.grades ?? {}, job, catalog, order, row.problems);
    if (row.problems.length > 0) continue;
    row.ok = true;
    managed.add(job.name);
    departments.push({
      departmentId: department.id,
      department: key,
      job: job.name,
      ranks: row.ranks,
      lowest: job.grades[0]!.level,
    });
  }
  const fallback = unassigned ? jobs.get(unassigned.job) : undefined;
  const unassignedProblem =
    unassigned === null
      ? null
      : !fallback
        ? `the framework has no job "${unassigned.job}"`
        : !fallback.grades.some((g) => g.level === unassigned.grade)
          ? `job "${unassigned.job}" has no grade ${unassigned.grade}`
          : null;
  return {
    departments,
    rows,
    managed,
    unassignedOk: unassignedProblem === null,
    unassignedProblem,
  };
}

/**
 * Every rank of the department, most senior first, with its grade: listed, else by name or label,
 * else the nearest more junior rank's, else the job's lowest. Filled from the most junior up, so
 * a promotion never lowers the grade.
 */
function rankGrades(
  department: ApiDepartment,
  listed: Readonly<Record<string, number>>,
  job: FrameworkJob,
  catalog: CatalogIndex,
  order: RankOrder,
  problems: string[],
): RankGrade[] {
  const levels = new Set(job.grades.map((g) => g.level));
  const byListed = new Map<string, number>();
  for (const [rankKey, grade] of Object.entries(listed)) {
    const rank = catalog.rankIn(department.id, rankKey);
    if (!rank) problems.push(`${department.name} has no rank "${rankKey}"`);
    else if (!levels.has(grade)) problems.push(`job "${job.name}" has no grade ${grade} (for ${rank.name})`);
    else byListed.set(rank.id, grade);
  }
  const ladder = catalog.ladder(department.id, order);
  const result: RankGrade[] = [];
  let junior: number | null = null;
  for (const rank of [...ladder].reverse()) {
    let grade = byListed.get(rank.id);
    let source: GradeSource = 'listed';
    if (grade === undefined) {
      const name = matchKey(rank.name);
      grade = job.grades.find((g) => matchKey(g.name) === name || matchKey(g.label) === name)?.level;
      source = 'by name';
    }
    if (grade === undefined || (junior !== null && source === 'by name' && grade < junior)) {
      grade = junior ?? job.grades[0]!.level;
      source = junior === null ? 'lowest' : 'more junior';
    }
    junior = grade;
    result.push({ rankId: rank.id, rank: rank.name, position: rank.position, grade, source });
  }
  return result.reverse();
}
