import type { JobGrade } from '../../core/jobs/roster-jobs';
import { serverId } from '../arguments';
import type { ExportAnswers } from '../safe-exports';

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
