import type { FrameworkJob } from '../framework-jobs';
import { gradesFrom } from '../framework-jobs';
import type { FrameworkPort } from '../framework-port';
import type { HeldJobs } from '../job-plan';
import { entriesOf, exportsOf, field, jobMap, numberOf } from './framework-calls';

const RESOURCE = 'ox_core';

interface GlobalBag {
  [key: string]: unknown;
}

/**
 * ox_core (player/class.ts, groups/index.ts): groups instead of jobs, grades from 1, and grade 0
 * removes the group. A character holds one group per type, so a group the roster no longer gives,
 * or another of the same type, is removed before the new one is set. Grades go as numbers (a `'2'` while holding 2 writes again).
 * ox_core writes the database at once; it keeps no duty.
 */
export function oxPort(): FrameworkPort {
  const ox = () => exportsOf(RESOURCE);
  const call = (src: string, method: string, ...args: unknown[]) =>
    ox().CallPlayer!(Number(src), method, ...args);
  const typeOf = (group: string) =>
    field((globalThis as unknown as { GlobalState: GlobalBag }).GlobalState[`group.${group}`], 'type');
  const makeRoom = async (src: string, group: string) => {
    const type = typeOf(group);
    if (typeof type !== 'string') return;
    for (const [held] of entriesOf(await call(src, 'getGroups'))) {
      if (held !== group && typeOf(held) === type) await call(src, 'setGroup', held, 0);
    }
  };
  return {
    name: 'ox',
    resource: RESOURCE,
    style: 'groups',
    removesJob: true,
    async jobs() {
      const state = (globalThis as unknown as { GlobalState: GlobalBag }).GlobalState;
      const names = state.groups;
      const list: FrameworkJob[] = [];
      for (const [, name] of entriesOf(names)) {
        if (typeof name !== 'string') continue;
        const group = state[`group.${name}`];
        list.push({
          name,
          label: String(field(group, 'label') ?? name),
          grades: gradesFrom(field(group, 'grades'), 1),
        });
      }
      return jobMap(list);
    },
    async held(src): Promise<HeldJobs | null> {
      const player = await ox().GetPlayer!(Number(src));
      if (field(player, 'charId') === null || field(player, 'charId') === undefined) return null;
      const groups = await call(src, 'getGroups');
      const jobs = new Map<string, number>();
      for (const [name, grade] of entriesOf(groups)) {
        const level = numberOf(grade);
        if (level !== null) jobs.set(name, level);
      }
      return { primary: null, jobs, duty: null };
    },
    async apply(src, op) {
      if (op.kind === 'primary') return;
      // A character holds one group per type: a group of the same type (a taxi shift) gives way,
      // as the other frameworks' SetJob replaces the job held.
      if (op.kind === 'set') await makeRoom(src, op.job);
      const grade = op.kind === 'remove' ? 0 : op.grade;
      const result = await call(src, 'setGroup', op.job, grade);
      // true when it wrote; undefined when it warned (unknown group, grade or a second of a type).
      if (result !== true) throw new Error(`setGroup ${op.job} ${grade} was not taken`);
    },
    async save() {},
  };
}
