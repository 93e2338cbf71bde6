import type { FrameworkPort } from '../framework-port';
import type { HeldJobs } from '../job-plan';
import { exportsOf, field, jobsByName, numberOf, singleJob } from './framework-calls';

const RESOURCE = 'qb-core';
type Fn = (...args: unknown[]) => unknown;

/**
 * QBCore (qb-core server/player.lua), old and new alike: everything goes through the core object,
 * which every version exports (versions before 2025 export nothing else that reaches a player).
 * `SetJob` takes an unknown grade silently (the mapping is validated first), always resets duty
 * (put back with `SetJobDuty`) and does not save: `Save()` follows every change. The methods are
 * bound already, so they are called without a `self`; players are looked up by number.
 */
export function qbPort(): FrameworkPort {
  let core: unknown;
  const qb = async () => (core ??= await exportsOf(RESOURCE).GetCoreObject!());
  const player = async (src: string) => {
    const getPlayer = field(await qb(), 'Functions', 'GetPlayer') as Fn;
    return (await getPlayer(Number(src))) ?? null;
  };
  const method = async (src: string, name: string) => {
    const fn = field(await player(src), 'Functions', name);
    if (typeof fn !== 'function') throw new Error('the character is no longer loaded');
    return fn as Fn;
  };
  return {
    name: 'qb',
    resource: RESOURCE,
    style: 'single',
    removesJob: false,
    async jobs() {
      // Fresh each time: a job added at runtime (AddJob) shows in the shared table.
      core = undefined;
      const jobs = field(await qb(), 'Shared', 'Jobs');
      return jobsByName(jobs);
    },
    async held(src): Promise<HeldJobs | null> {
      const job = field(await player(src), 'PlayerData', 'job');
      return singleJob(field(job, 'name'), numberOf(field(job, 'grade', 'level')), field(job, 'onduty'));
    },
    async apply(src, op, keepDuty) {
      if (op.kind !== 'set') throw new Error(`QBCore has one job per character (${op.kind} ${op.job})`);
      const ok = await (await method(src, 'SetJob'))(op.job, op.grade);
      if (ok !== true) throw new Error(`SetJob ${op.job} ${op.grade} was refused`);
      if (keepDuty !== null) await (await method(src, 'SetJobDuty'))(keepDuty);
    },
    async save(src) {
      await (await method(src, 'Save'))();
    },
  };
}
