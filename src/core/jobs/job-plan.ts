import type { JobGrade, RosterJobs } from './roster-jobs';

/**
 * How a framework holds jobs: one job per character (QBCore, ESX, ND_Core, Qbox by default),
 * several with a primary one (Qbox with `qbx:max_jobs_per_player` above 1), or groups of which
 * the roster gives one (ox_core).
 */
export type JobStyle = 'single' | 'multi' | 'groups';

/** A character's jobs as the framework holds them now. */
export interface HeldJobs {
  /** The character's job (Qbox's primary job); null for ox_core, which has none. */
  primary: JobGrade | null;
  /** Every job or group held, with its grade. */
  jobs: ReadonlyMap<string, number>;
  /** Duty, where the framework keeps it with the job; null where it does not. */
  duty: boolean | null;
}

/** One write into the framework. */
export type JobOp =
  | { kind: 'set'; job: string; grade: number }
  | { kind: 'add'; job: string; grade: number }
  | { kind: 'remove'; job: string }
  | { kind: 'primary'; job: string };

export interface PlanContext {
  style: JobStyle;
  managed: ReadonlySet<string>;
  /**
   * What a character losing a managed job gets: `jobs.unassigned`; 'remove' where the group is
   * removed (ox_core, ND_Core); null when `jobs.unassigned` is not a job the framework has, so the
   * character keeps what it holds rather than get a job that does not exist.
   */
  unassigned: JobGrade | 'remove' | null;
}

/**
 * The writes that make a character hold what the roster gives, and only those: nothing when it
 * already does, and nothing about jobs the roster does not manage.
 */
export function planJobs(held: HeldJobs, want: RosterJobs | null, c: PlanContext): JobOp[] {
  if (c.style === 'single') {
    const current = held.primary;
    if (want) return same(current, want.primary) ? [] : [{ kind: 'set', ...want.primary }];
    if (!current || !c.managed.has(current.job)) return [];
    if (c.unassigned === 'remove') return [{ kind: 'remove', job: current.job }];
    if (!c.unassigned) return [];
    return same(current, c.unassigned) ? [] : [{ kind: 'set', ...c.unassigned }];
  }
  const given = new Map(
    (c.style === 'multi' ? want?.all : want ? [want.primary] : [])?.map((j) => [j.job, j.grade]),
  );
  const ops: JobOp[] = [];
  for (const job of held.jobs.keys())
    if (c.managed.has(job) && !given.has(job)) ops.push({ kind: 'remove', job });
  for (const [job, grade] of given) {
    if (held.jobs.get(job) !== grade) ops.push({ kind: c.style === 'multi' ? 'add' : 'set', job, grade });
  }
  if (c.style === 'multi') {
    if (want && held.primary?.job !== want.primary.job) ops.push({ kind: 'primary', job: want.primary.job });
    const losesPrimary = !want && held.primary !== null && c.managed.has(held.primary.job);
    // Qbox makes a character whose primary job goes `unemployed` 0 itself; anything else is set.
    const unassigned = c.unassigned === 'remove' ? null : c.unassigned;
    if (losesPrimary && unassigned && !same({ job: 'unemployed', grade: 0 }, unassigned))
      ops.push({ kind: 'set', ...unassigned });
  }
  return ops;
}

/**
 * True when the character holds a managed job, or a grade of one, that the roster does not give:
 * something else put it there, and the roster sets it back. A character who left a managed job
 * for another (a taxi shift) holds nothing wrong.
 */
export function holdsWrongManagedJob(held: HeldJobs, want: RosterJobs | null, c: PlanContext): boolean {
  const given = new Map(
    (c.style === 'multi' ? (want?.all ?? []) : want ? [want.primary] : []).map((j) => [j.job, j.grade]),
  );
  const jobs =
    c.style === 'single'
      ? held.primary
        ? new Map([[held.primary.job, held.primary.grade]])
        : new Map()
      : held.jobs;
  for (const [job, grade] of jobs) if (c.managed.has(job) && given.get(job) !== grade) return true;
  return false;
}

function same(a: JobGrade | null, b: JobGrade): boolean {
  return a !== null && a.job === b.job && a.grade === b.grade;
}
