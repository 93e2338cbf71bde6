import type { Member } from '../../roster/model';
import type { JobMapping, RankGrade } from './job-mapping';

export interface JobGrade {
  job: string;
  grade: number;
}

/** What the roster gives a member's character: the primary job and, for multi-job, every job. */
export interface RosterJobs {
  primary: JobGrade;
  /** Primary first, one entry per job. */
  all: JobGrade[];
}

/**
 * The jobs the roster gives a member, or null: not on the roster, a status that may not join, or
 * no mapped department. The primary job is the primary department's if it is mapped, else the
 * first mapped department's in `jobs.departments` order.
 */
export function rosterJobsOf(
  member: Member | null,
  mapping: JobMapping,
  admits: (status: string) => boolean,
): RosterJobs | null {
  if (!member || !admits(member.status)) return null;
  const held: { job: JobGrade; primary: boolean }[] = [];
  for (const entry of mapping.departments) {
    const department = member.departments.find((d) => d.id === entry.departmentId);
    if (!department) continue;
    // No rank: the department's most junior grade; a department with no ranks: the job's lowest.
    const grade =
      (department.rank ? gradeOf(entry.ranks, department.rank) : entry.ranks.at(-1)?.grade) ?? entry.lowest;
    held.push({ job: { job: entry.job, grade }, primary: department.primary });
  }
  const first = held.find((h) => h.primary) ?? held[0];
  if (!first) return null;
  const all: JobGrade[] = [first.job];
  for (const h of held) if (!all.some((j) => j.job === h.job.job)) all.push(h.job);
  return { primary: first.job, all };
}

/**
 * The grade of a member's rank. A rank created on the roster since its ranks were read is not in
 * the mapping yet: it gets the grade of the rank that held its position then, which a new rank
 * pushes one step more junior (or the nearest more junior rank's), so a promotion into it never
 * falls to the job's lowest grade before the ranks are read again.
 */
function gradeOf(ranks: readonly RankGrade[], rank: { id: string; position: number }): number | undefined {
  const known = ranks.find((r) => r.rankId === rank.id);
  if (known) return known.grade;
  // Most senior first: positions rise down the list when 1 is the most senior (`top-down`).
  const topDown = ranks.length < 2 || ranks[0]!.position <= ranks.at(-1)!.position;
  const junior = ranks.find((r) => (topDown ? r.position >= rank.position : r.position < rank.position));
  return (junior ?? ranks.at(-1))?.grade;
}
