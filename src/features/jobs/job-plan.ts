import type { JobGrade, RosterJobs } from './roster-jobs';

/**
 * How a framework holds jobs: one job per character (QBCore, ESX, ND_Core, Qbox by default; ND_Core
 * and Qbox may still hold groups or jobs beside it), several with a primary one (Qbox with
 * `qbx:max_jobs_per_player` above 1), or groups of which the roster gives one (ox_core).
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

/**
 * One write into the framework: `set` the character's job (ox_core: a group), `add` a job beside
 * it or set the grade of one held there, `remove` a job or group, make one held `primary`.
 */
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
  /**
   * True when the pass sets back what something else changed, rather than applying the roster at
   * a load or a roster change: an unmanaged job the character took (a taxi shift) stays theirs.
   */
  settingBack?: boolean;
}

/**
 * The writes that make a character hold what the roster gives, and only those: nothing when it
 * already does, and nothing about jobs the roster does not manage. Every managed job or group the
 * character holds is judged, the job itself and any held beside it (ND_Core's groups, a Qbox
 * character's list of jobs): each carries the job's rights wherever it sits.
 */
export function planJobs(held: HeldJobs, want: RosterJobs | null, c: PlanContext): JobOp[] {
  const keeps = keepsOwnJob(held, c);
  if (c.style === 'single') {
    const current = held.primary;
    const wanted = want?.primary ?? null;
    const ops: JobOp[] = [];
    for (const [job, grade] of held.jobs) {
      if (job === current?.job || !c.managed.has(job)) continue;
      if (job !== wanted?.job) ops.push({ kind: 'remove', job });
      // Held beside an unmanaged job the character keeps: the group's grade is set, not the job.
      else if (keeps && grade !== wanted.grade) ops.push({ kind: 'add', ...wanted });
    }
    if (wanted) {
      if (!keeps && !same(current, wanted)) ops.push({ kind: 'set', ...wanted });
      return ops;
    }
    if (!current || !c.managed.has(current.job)) return ops;
    if (c.unassigned === 'remove') ops.push({ kind: 'remove', job: current.job });
    else if (c.unassigned && !same(current, c.unassigned)) ops.push({ kind: 'set', ...c.unassigned });
    return ops;
  }
  const given = givenJobs(want, c.style);
  const ops: JobOp[] = [];
  for (const job of held.jobs.keys())
    if (c.managed.has(job) && !given.has(job)) ops.push({ kind: 'remove', job });
  for (const [job, grade] of given) {
    if (held.jobs.get(job) !== grade) ops.push({ kind: c.style === 'multi' ? 'add' : 'set', job, grade });
  }
  if (c.style === 'multi') {
    if (want && !keeps && held.primary?.job !== want.primary.job)
      ops.push({ kind: 'primary', job: want.primary.job });
    const losesPrimary = !want && held.primary !== null && c.managed.has(held.primary.job);
    // Qbox makes a character whose primary job goes `unemployed` 0 itself; anything else is set.
    const unassigned = c.unassigned === 'remove' ? null : c.unassigned;
    if (losesPrimary && unassigned && !same({ job: 'unemployed', grade: 0 }, unassigned))
      ops.push({ kind: 'set', ...unassigned });
  }
  return ops;
}

/**
 * A managed job or group the character holds at a grade the roster does not give (or at all):
 * something else put it there, and the roster sets it back. Null when there is none; a character
 * who left a managed job for another (a taxi shift) holds nothing wrong.
 */
export function wrongManagedJob(held: HeldJobs, want: RosterJobs | null, c: PlanContext): JobGrade | null {
  const given = givenJobs(want, c.style);
  for (const [job, grade] of held.jobs)
    if (c.managed.has(job) && given.get(job) !== grade) return { job, grade };
  return null;
}

/** The grade the roster gives the character in `job`, or undefined where it gives none. */
export function givenGrade(want: RosterJobs | null, style: JobStyle, job: string): number | undefined {
  return givenJobs(want, style).get(job);
}

/**
 * True while setting back, for a character whose job is not a managed one: the job is left to
 * them (ox_core has no job; its groups are all judged alike).
 */
export function keepsOwnJob(held: HeldJobs, c: PlanContext): boolean {
  if (!c.settingBack || c.style === 'groups') return false;
  return !(held.primary && c.managed.has(held.primary.job));
}

/** The jobs the roster gives, by name: every mapped department's for multi-job, else the one. */
function givenJobs(want: RosterJobs | null, style: JobStyle): Map<string, number> {
  const jobs = style === 'multi' ? (want?.all ?? []) : want ? [want.primary] : [];
  return new Map(jobs.map((j) => [j.job, j.grade]));
}

function same(a: JobGrade | null, b: JobGrade): boolean {
  return a !== null && a.job === b.job && a.grade === b.grade;
}
