import { gradesFrom } from '../framework-jobs';
import type { FrameworkPort } from '../framework-port';
import type { HeldJobs } from '../job-plan';
import { entriesOf, exportsOf, field, jobMap, numberOf } from './framework-calls';

const RESOURCE = 'ND_Core';
type Fn = (...args: unknown[]) => unknown;

/**
 * ND_Core (server/player.lua, groups.lua). `setJob` takes any name (the mapping is validated
 * first), ranks from 1; the same job and rank again is not a no-op. A character holds groups
 * beside its job (an old job kept by `setJob(…, keepGroup)`, an admin's `addGroup`), each with its
 * rights, so every one of them is read: a managed group beside the job is removed (`removeGroup`)
 * or set to the roster's rank with `addGroup`, which leaves the job where it is. A character
 * losing a managed job loses the group. ND_Core saves groups only at unload and every 10 minutes,
 * so `save('groups')` follows every change. Players are looked up by number.
 */
export function ndPort(): FrameworkPort {
  const nd = () => exportsOf(RESOURCE);
  const player = async (src: string) => (await nd().getPlayer!(Number(src))) ?? null;
  const method = async (src: string, name: string) => {
    const fn = field(await player(src), name);
    if (typeof fn !== 'function') throw new Error('the character is no longer loaded');
    return fn as Fn;
  };
  return {
    name: 'nd',
    resource: RESOURCE,
    style: 'single',
    removesJob: true,
    async jobs() {
      const groups = await nd().getAllGroups!();
      return jobMap(
        entriesOf(groups).flatMap(([, group]) => {
          const name = field(group, 'name');
          if (typeof name !== 'string') return [];
          return [
            {
              name,
              label: String(field(group, 'label') ?? name),
              grades: gradesFrom(field(group, 'ranks'), 1),
            },
          ];
        }),
      );
    },
    async held(src): Promise<HeldJobs | null> {
      const character = await player(src);
      if (!character) return null;
      const jobs = new Map<string, number>();
      for (const [name, group] of entriesOf(field(character, 'groups'))) {
        const rank = numberOf(field(group, 'rank'));
        if (rank !== null) jobs.set(name, rank);
      }
      const job = field(character, 'job');
      const rank = typeof job === 'string' ? jobs.get(job) : undefined;
      return {
        primary: typeof job === 'string' && rank !== undefined ? { job, grade: rank } : null,
        jobs,
        duty: null,
      };
    },
    async apply(src, op) {
      if (op.kind === 'set') await (await method(src, 'setJob'))(op.job, op.grade);
      // Without the job flag: the group stays beside the character's job.
      else if (op.kind === 'add') await (await method(src, 'addGroup'))(op.job, op.grade);
      else if (op.kind === 'remove') await (await method(src, 'removeGroup'))(op.job);
      else throw new Error(`ND_Core makes a job primary only by setJob (${op.kind} ${op.job})`);
    },
    async save(src) {
      await (await method(src, 'save'))('groups');
    },
  };
}
