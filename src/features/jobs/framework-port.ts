import type { FrameworkJobs } from './framework-jobs';
import type { HeldJobs, JobOp, JobStyle } from './job-plan';

/** The frameworks job sync speaks to (`jobs.framework`). */
export type FrameworkName = 'qbx' | 'qb' | 'esx' | 'ox' | 'nd';

/**
 * One framework behind one interface: what job sync reads and writes, nothing else. Every method
 * may reject or hang (a framework is another resource's code): callers bound each call in time.
 */
export interface FrameworkPort {
  readonly name: FrameworkName;
  /** The resource that provides it (for the console and `roster doctor`). */
  readonly resource: string;
  readonly style: JobStyle;
  /** True where a character that loses a managed job loses the group (ox_core, ND_Core). */
  readonly removesJob: boolean;
  /** The framework's jobs (or groups); empty while the framework is still filling its list. */
  jobs(): Promise<FrameworkJobs>;
  /** The jobs of the player's character; null when no character is loaded. */
  held(src: string): Promise<HeldJobs | null>;
  /**
   * One write. `keepDuty` is the duty to keep, for a grade change within the character's job on a
   * framework that would otherwise reset it; null to leave duty to the framework.
   */
  apply(src: string, op: JobOp, keepDuty: boolean | null): Promise<void>;
  /** Asks the framework to save the character now, where it delays saving; else does nothing. */
  save(src: string): Promise<void>;
}
