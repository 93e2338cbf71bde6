import { fx } from '../../../platform/natives';
import type { FrameworkPort } from '../framework-port';
import type { HeldJobs, JobOp } from '../job-plan';
import { entriesOf, exportsOf, field, firstValue, jobsByName, numberOf } from './framework-calls';

const RESOURCE = 'qbx_core';

/**
 * Qbox (qbx_core server/player.lua, groups.lua). `SetJob` with the job and grade the character
 * already has is not a no-op (it removes the job, adds it back and resets duty), so it is only
 * called where something differs; every primary-job write resets duty, so a grade change puts it
 * back with `SetJobDuty`. With `qbx:max_jobs_per_player` above 1, every mapped department is a
 * job (`AddPlayerToJob`, `RemovePlayerFromJob`, `SetPlayerPrimaryJob`, by citizenid). Even with
 * one job allowed, a character's list of jobs may hold one beside the primary job (`AddPlayerToJob`
 * while the primary is `unemployed`), and `HasGroup` counts it: the whole list is read. Qbox saves
 * job changes itself.
 */
export function qbxPort(): FrameworkPort {
  const qbx = () => exportsOf(RESOURCE);
  const player = async (src: string) => field(await qbx().GetPlayer!(Number(src)), 'PlayerData');
  const citizenid = async (src: string) => {
    const id = field(await player(src), 'citizenid');
    if (typeof id !== 'string') throw new Error('the character is no longer loaded');
    return id;
  };
  /** `boolean, ErrorResult?`: false (with or without a reason) is a refusal. */
  const accepted = (what: string, result: unknown) => {
    if (firstValue(result) !== true) {
      const reason = Array.isArray(result) ? field(result[1], 'message') : undefined;
      throw new Error(`${what} was refused${typeof reason === 'string' ? `: ${reason}` : ''}`);
    }
  };
  return {
    name: 'qbx',
    resource: RESOURCE,
    style: fx.GetConvarInt('qbx:max_jobs_per_player', 1) > 1 ? 'multi' : 'single',
    removesJob: false,
    async jobs() {
      const jobs = await qbx().GetJobs!();
      return jobsByName(jobs);
    },
    async held(src): Promise<HeldJobs | null> {
      const data = await player(src);
      if (!data) return null;
      const job = field(data, 'job');
      const name = field(job, 'name');
      const grade = numberOf(field(job, 'grade', 'level'));
      const jobs = new Map<string, number>();
      for (const [key, value] of entriesOf(field(data, 'jobs'))) {
        const level = numberOf(value);
        if (level !== null) jobs.set(key, level);
      }
      const primary = typeof name === 'string' && grade !== null ? { job: name, grade } : null;
      if (primary && !jobs.has(primary.job)) jobs.set(primary.job, primary.grade);
      return {
        primary,
        jobs,
        duty: typeof field(job, 'onduty') === 'boolean' ? Boolean(field(job, 'onduty')) : null,
      };
    },
    async apply(src, op: JobOp, keepDuty) {
      const api = qbx();
      if (op.kind === 'set')
        accepted(`SetJob ${op.job} ${op.grade}`, await api.SetJob!(Number(src), op.job, op.grade));
      else if (op.kind === 'add')
        accepted(
          `AddPlayerToJob ${op.job} ${op.grade}`,
          await api.AddPlayerToJob!(await citizenid(src), op.job, op.grade),
        );
      else if (op.kind === 'remove')
        accepted(
          `RemovePlayerFromJob ${op.job}`,
          await api.RemovePlayerFromJob!(await citizenid(src), op.job),
        );
      else
        accepted(
          `SetPlayerPrimaryJob ${op.job}`,
          await api.SetPlayerPrimaryJob!(await citizenid(src), op.job),
        );
      if (keepDuty !== null) await api.SetJobDuty!(Number(src), keepDuty);
    },
    async save() {},
  };
}
