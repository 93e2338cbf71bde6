import { Handle } from '../../kernel/handle';
import type { JobGrade } from './roster-jobs';

/** What the other features ask job sync (the panel's job column). */
export interface JobSyncHandle {
  /** The framework job and grade the roster gives a player's character, or null. */
  jobOf(src: string): JobGrade | null;
}

/** Provided by job sync when `jobs.enabled`; null otherwise. */
export const jobSyncHandle = new Handle<JobSyncHandle>('job sync');
