import type { JobGrade } from '../../core/jobs/roster-jobs';
import type { Logger } from '../../core/ports';
import { serverId } from '../arguments';
import { fx } from '../natives';

/**
 * `getJob(src)`: the job and grade the roster gives the player's character, or null (job sync
 * off, not set up, or the roster gives none). Never throws across the boundary.
 */
export function registerJobExports(deps: {
  jobs: () => { jobOf(src: string): JobGrade | null } | null;
  logger: Logger;
}): void {
  fx.exports('getJob', (src: unknown) => {
    try {
      const id = serverId(src);
      const job = id === null ? null : (deps.jobs()?.jobOf(id) ?? null);
      return job ? { job: job.job, grade: job.grade } : null;
    } catch (error) {
      deps.logger.warn(`export getJob failed: ${(error as Error)?.message ?? String(error)}`);
      return null;
    }
  });
}
