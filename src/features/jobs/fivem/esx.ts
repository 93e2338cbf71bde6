import { fx } from '../../../platform/natives';
import type { FrameworkPort } from '../framework-port';
import type { HeldJobs } from '../job-plan';
import { exportsOf, field, jobsByName, numberOf, singleJob } from './framework-calls';

const RESOURCE = 'es_extended';
type Fn = (...args: unknown[]) => unknown;

/**
 * ESX Legacy (es_extended server/classes/player.lua). `setJob` returns nothing whether it took the
 * job or ignored it, so the mapping is validated first and the result read back; duty is its third
 * argument (without it, duty resets). Players are reached with `RunStaticPlayerMethod` by number,
 * which copies no xPlayer into JS. ESX saves jobs only at drop, logout, every 10 minutes or with
 * the `save <id>` command, which the resource runs (it needs `command.save`).
 */
export function esxPort(): FrameworkPort {
  const esx = () => exportsOf(RESOURCE);
  const run = (src: string, method: string, ...args: unknown[]) =>
    esx().RunStaticPlayerMethod!(Number(src), method, ...args);
  return {
    name: 'esx',
    resource: RESOURCE,
    style: 'single',
    removesJob: false,
    async jobs() {
      const shared = await esx().getSharedObject!();
      // GetJobs waits while ESX (re)loads its jobs from the database: a Promise then.
      const jobs = await (field(shared, 'GetJobs') as Fn)();
      return jobsByName(jobs);
    },
    async held(src): Promise<HeldJobs | null> {
      const job = await run(src, 'getJob');
      return singleJob(field(job, 'name'), numberOf(field(job, 'grade')), field(job, 'onDuty'));
    },
    async apply(src, op, keepDuty) {
      if (op.kind !== 'set') throw new Error(`ESX has one job per character (${op.kind} ${op.job})`);
      await (keepDuty === null
        ? run(src, 'setJob', op.job, op.grade)
        : run(src, 'setJob', op.job, op.grade, keepDuty));
    },
    async save(src) {
      fx.ExecuteCommand(`save ${Number(src)}`);
    },
  };
}
