import type { Member } from '../model';
import type { JobMapping } from './job-mapping';

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
    const rank = department.rank ? entry.ranks.find((r) => r.rankId === department.rank!.id) : undefined;
    // No rank (or one added since the catalog was read): the department's most junior grade.
    const grade = rank?.grade ?? entry.ranks.at(-1)?.grade;
    if (grade === undefined) continue;
    held.push({ job: { job: entry.job, grade }, primary: department.primary });
  }
  const first = held.find((h) => h.primary) ?? held[0];
  if (!first) return null;
  const all: JobGrade[] = [first.job];
  for (const h of held) if (!all.some((j) => j.job === h.job.job)) all.push(h.job);
  return { primary: first.job, all };
}
