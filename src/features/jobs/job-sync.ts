import { withinOrFail } from '../../platform/answer-within';
import { errorMessage } from '../../platform/error-message';
import type { Clock, Logger } from '../../platform/ports';
import type { Member } from '../../roster/model';
import type { FrameworkPort } from './framework-port';
import type { JobMapping } from './job-mapping';
import {
  givenGrade,
  type HeldJobs,
  type JobStyle,
  keepsOwnJob,
  type PlanContext,
  planJobs,
  wrongManagedJob,
} from './job-plan';
import { type JobGrade, type RosterJobs, rosterJobsOf } from './roster-jobs';
import { SetBackBudget } from './set-back-budget';

/** `roster:jobChanged`'s second argument. */
export interface JobChange {
  job: string | null;
  grade: number | null;
  previous: JobGrade | null;
}

export interface JobSyncDeps {
  /** The player's roster data: undefined while the roster has not answered for them. */
  memberOf(src: string): Member | null | undefined;
  nameOf(src: string): string;
  admits(status: string): boolean;
  unassigned: JobGrade;
  clock: Clock;
  logger: Logger;
  /** The longest one call into the framework may take. */
  callMs: number;
  jobChanged(src: string, change: JobChange): void;
}

/** Why a character is looked at: a load or a roster change applies; a job event checks for drift. */
type Reason = 'apply' | 'drift';

/**
 * Keeps each online character's job where the roster puts it. One pass
 * per player at a time; what asks meanwhile is folded into one more pass after it, so a burst of
 * events (the framework's own, fired by our write) costs one read, and a write happens only where
 * the character differs from the roster: no loop through the framework's job events.
 */
export class JobSync {
  private port: FrameworkPort | null = null;
  private mapping: JobMapping | null = null;
  private readonly running = new Map<string, Reason | null>();
  private readonly setBacks = new SetBackBudget();

  constructor(private readonly deps: JobSyncDeps) {}

  /** The framework and a validated mapping; null while either is missing. Applies to everyone online. */
  use(port: FrameworkPort | null, mapping: JobMapping | null, online: readonly string[]): void {
    this.port = port;
    this.mapping = mapping;
    if (port && mapping) for (const src of online) this.request(src, 'apply');
  }

  /** A character loaded, or the player's roster data changed. */
  apply(src: string): void {
    this.request(src, 'apply');
  }

  /** The framework says the character's job changed: set back what the roster does not give. */
  jobEvent(src: string): void {
    this.request(src, 'drift');
  }

  /**
   * The character unloaded or the player dropped: what was asked meanwhile is dropped. A pass that
   * is running keeps its place, so a character loading next waits for it rather than run beside it.
   */
  forget(src: string): void {
    if (this.running.has(src)) this.running.set(src, null);
    this.setBacks.reset(src);
  }

  /** The job the roster gives the player's character, or null. */
  jobOf(src: string): JobGrade | null {
    if (!this.mapping) return null;
    return rosterJobsOf(this.deps.memberOf(src) ?? null, this.mapping, this.deps.admits)?.primary ?? null;
  }

  private request(src: string, reason: Reason): void {
    if (!this.port || !this.mapping) return;
    if (this.running.has(src)) {
      const queued = this.running.get(src);
      this.running.set(src, queued === 'apply' || reason === 'apply' ? 'apply' : 'drift');
      return;
    }
    this.running.set(src, null);
    void this.pass(src, reason);
  }

  private async pass(src: string, reason: Reason): Promise<void> {
    try {
      await this.sync(src, reason);
    } catch (error) {
      this.deps.logger.warn(`Job sync for ${this.deps.nameOf(src)} (${src}): ${errorMessage(error)}`);
    }
    const next = this.running.get(src);
    this.running.delete(src);
    if (next) this.request(src, next);
  }

  private async sync(src: string, reason: Reason): Promise<void> {
    const port = this.port;
    const mapping = this.mapping;
    const member = this.deps.memberOf(src);
    if (!port || !mapping || member === undefined) return;
    const held = await this.call(port.held(src), `${port.resource} reading the character`);
    if (!held) return;
    const want = rosterJobsOf(member, mapping, this.deps.admits);
    const context: PlanContext = {
      style: port.style,
      managed: mapping.managed,
      unassigned: port.removesJob ? 'remove' : mapping.unassignedOk ? this.deps.unassigned : null,
      settingBack: reason === 'drift',
    };
    if (reason === 'apply') this.setBacks.reset(src);
    const wrong = wrongManagedJob(held, want, context);
    if (reason === 'drift' && !wrong) return;
    const ops = planJobs(held, want, context);
    if (ops.length === 0) return;
    if (reason === 'drift' && wrong) {
      if (!this.maySetBack(src, wrong)) return;
      this.reportDrift(src, wrong, this.decision(held, want, wrong, context));
    }
    for (const op of ops) {
      const keepDuty = op.kind !== 'remove' && held.primary?.job === op.job ? held.duty : null;
      await this.call(port.apply(src, op, keepDuty), `${port.resource} setting ${op.job}`);
    }
    await this.call(port.save(src), `${port.resource} saving the character`);
    const after = await this.call(port.held(src), `${port.resource} reading the character`);
    this.announce(src, held, after, targetOf(held, want?.primary ?? null, context));
  }

  /** What the roster does about a managed job something else gave, as the console tells it. */
  private decision(held: HeldJobs, want: RosterJobs | null, wrong: JobGrade, context: PlanContext): string {
    const grade = givenGrade(want, context.style, wrong.job);
    if (grade !== undefined) return `set back to ${wrong.job} grade ${grade}`;
    // Their job itself: the roster's job takes its place.
    if (want && held.primary?.job === wrong.job)
      return `set back to ${want.primary.job} grade ${want.primary.grade}`;
    return `the roster gives them no ${wrong.job}`;
  }

  /** `roster:jobChanged` once the framework shows the change it was asked for. */
  private announce(src: string, before: HeldJobs, after: HeldJobs | null, target: JobGrade | null): void {
    if (!after) return;
    const style = this.port!.style;
    const previous = jobOfStyle(before, this.mapping!.managed, style);
    const now = jobOfStyle(after, this.mapping!.managed, style);
    const took = target ? now?.job === target.job && now.grade === target.grade : now === null;
    if (!took) {
      this.deps.logger.warn(
        `Job sync for ${this.deps.nameOf(src)} (${src}): the framework did not take ${target ? `${target.job} grade ${target.grade}` : 'the removal'}.`,
      );
      return;
    }
    if (previous?.job === now?.job && previous?.grade === now?.grade) return;
    this.deps.jobChanged(src, { job: now?.job ?? null, grade: now?.grade ?? null, previous });
  }

  /** False once something else has kept putting the character back too often: say so once. */
  private maySetBack(src: string, tried: JobGrade): boolean {
    if (this.setBacks.gaveUp(src)) return false;
    if (this.setBacks.take(src, this.deps.clock.now())) return true;
    this.deps.logger.warn(
      `${this.deps.nameOf(src)} (${src}) keeps being put into ${tried.job} grade ${tried.grade} by something else; the roster stops setting it back until their next load or roster change (find what sets it).`,
    );
    return false;
  }

  private reportDrift(src: string, tried: JobGrade, decision: string): void {
    this.deps.logger.warn(
      `${this.deps.nameOf(src)} (${src}) was put into ${tried.job} grade ${tried.grade} by something else; the roster decides: ${decision}.`,
    );
  }

  private call<T>(work: Promise<T>, what: string): Promise<T> {
    return withinOrFail(Promise.resolve(work), this.deps.callMs, this.deps.clock, what);
  }
}

/**
 * The job the character should hold once the writes are taken: the roster's; else, for one losing
 * a managed job, `jobs.unassigned` (or none, where the group is removed); a multi-job character
 * whose primary job is unmanaged (a taxi shift) keeps it while losing a managed job beside it.
 */
function targetOf(held: HeldJobs, want: JobGrade | null, context: PlanContext): JobGrade | null {
  // Setting back a group beside an unmanaged job the character keeps leaves that job as it is.
  if (keepsOwnJob(held, context)) return held.primary;
  if (want) return want;
  if (held.primary && !context.managed.has(held.primary.job)) return held.primary;
  if (context.unassigned === 'remove') return null;
  // Without a usable jobs.unassigned only Qbox multi-job writes here, and it makes a character
  // whose primary job is removed `unemployed` 0 itself.
  return context.unassigned ?? { job: 'unemployed', grade: 0 };
}

/** The job as `roster:jobChanged` tells it: the primary job, or (ox_core) the managed group held. */
function jobOfStyle(held: HeldJobs, managed: ReadonlySet<string>, style: JobStyle): JobGrade | null {
  if (held.primary || style !== 'groups') return held.primary;
  for (const [job, grade] of held.jobs) if (managed.has(job)) return { job, grade };
  return null;
}
