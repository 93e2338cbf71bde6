import { describe, expect, it } from 'vitest';
import {
  type HeldJobs,
  holdsWrongManagedJob,
  type PlanContext,
  planJobs,
} from '../../../src/core/jobs/job-plan';

const managed = new Set(['police', 'ambulance']);
const single: PlanContext = { style: 'single', managed, unassigned: { job: 'unemployed', grade: 0 } };
const held = (job: string, grade: number, jobs: Record<string, number> = { [job]: grade }): HeldJobs => ({
  primary: { job, grade },
  jobs: new Map(Object.entries(jobs)),
  duty: true,
});
const want = (job: string, grade: number, more: [string, number][] = []) => ({
  primary: { job, grade },
  all: [{ job, grade }, ...more.map(([j, g]) => ({ job: j, grade: g }))],
});

describe('planJobs', () => {
  it('writes nothing when the character already holds what the roster gives', () => {
    expect(planJobs(held('police', 2), want('police', 2), single)).toEqual([]);
  });

  it('one set for a different job or grade; unassigned for a managed job the roster no longer gives', () => {
    expect(planJobs(held('police', 1), want('police', 2), single)).toEqual([
      { kind: 'set', job: 'police', grade: 2 },
    ]);
    expect(planJobs(held('police', 1), null, single)).toEqual([{ kind: 'set', job: 'unemployed', grade: 0 }]);
    expect(planJobs(held('taxi', 0), null, single)).toEqual([]);
    expect(planJobs(held('police', 1), null, { ...single, unassigned: 'remove' })).toEqual([
      { kind: 'remove', job: 'police' },
    ]);
    // jobs.unassigned is not a job the framework has: the character keeps what it holds.
    expect(planJobs(held('police', 1), null, { ...single, unassigned: null })).toEqual([]);
  });

  it('multi-job: adds, removes and sets the primary job; groups: removes the old group first', () => {
    const multi: PlanContext = { ...single, style: 'multi' };
    expect(planJobs(held('police', 1, { police: 1, ambulance: 2 }), want('ambulance', 3), multi)).toEqual([
      { kind: 'remove', job: 'police' },
      { kind: 'add', job: 'ambulance', grade: 3 },
      { kind: 'primary', job: 'ambulance' },
    ]);
    const groups: PlanContext = { style: 'groups', managed, unassigned: 'remove' };
    const ox: HeldJobs = {
      primary: null,
      jobs: new Map([
        ['police', 2],
        ['mechanic', 1],
      ]),
      duty: null,
    };
    expect(planJobs(ox, want('ambulance', 1), groups)).toEqual([
      { kind: 'remove', job: 'police' },
      { kind: 'set', job: 'ambulance', grade: 1 },
    ]);
  });
});

describe('holdsWrongManagedJob', () => {
  it('a managed job or grade the roster does not give is wrong; an unmanaged one (a taxi shift) is not', () => {
    expect(holdsWrongManagedJob(held('police', 0), want('police', 2), single)).toBe(true);
    expect(holdsWrongManagedJob(held('ambulance', 1), want('police', 2), single)).toBe(true);
    expect(holdsWrongManagedJob(held('taxi', 0), want('police', 2), single)).toBe(false);
    expect(holdsWrongManagedJob(held('police', 2), want('police', 2), single)).toBe(false);
  });
});
