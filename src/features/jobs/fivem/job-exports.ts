import { serverId } from '../../../platform/arguments';
import type { ExportAnswers } from '../../exports/fivem/safe-exports';
import type { JobGrade } from '../roster-jobs';

/**
 * `getJob(src)`: the job and grade the roster gives the player's character, or null (job sync
 * off, or the roster gives none).
 */
export function jobExports(jobs: () => { jobOf(src: string): JobGrade | null } | null): ExportAnswers {
  return {
    getJob: [
      (src) => {
        const id = serverId(src);
        const job = id === null ? null : (jobs()?.jobOf(id) ?? null);
        return job ? { job: job.job, grade: job.grade } : null;
      },
      null,
    ],
  };
}
