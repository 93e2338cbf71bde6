import { describe, expect, it } from 'vitest';
import {
  type HeldJobs,
  type PlanContext,
  planJobs,
  wrongManagedJob,
} from '../../../src/features/jobs/job-plan';

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

describe('groups beside the job', () => {
  // ND_Core after setJob('taxi', 1, nil, keepGroup), or an admin's addGroup; a Qbox character whose
  // list of jobs holds police while the primary job is unemployed.
  const beside = (job: string, grade: number, more: Record<string, number>) =>
    held(job, grade, { [job]: grade, ...more });

  it('a managed group the roster does not give is removed, whatever the job', () => {
    expect(planJobs(beside('taxi', 1, { police: 2 }), null, single)).toEqual([
      { kind: 'remove', job: 'police' },
    ]);
    expect(planJobs(beside('ambulance', 3, { police: 5 }), want('ambulance', 3), single)).toEqual([
      { kind: 'remove', job: 'police' },
    ]);
    // Losing the job too: the group beside goes first, then the job gets jobs.unassigned.
    expect(planJobs(beside('police', 2, { ambulance: 1 }), null, single)).toEqual([
      { kind: 'remove', job: 'ambulance' },
      { kind: 'set', job: 'unemployed', grade: 0 },
    ]);
  });

  it('at a load or roster change the roster’s job replaces the job; setting back leaves an unmanaged job alone', () => {
    const onTaxi = beside('taxi', 1, { police: 5 });
    expect(planJobs(onTaxi, want('police', 2), single)).toEqual([{ kind: 'set', job: 'police', grade: 2 }]);
    const settingBack = { ...single, settingBack: true };
    expect(planJobs(onTaxi, want('police', 2), settingBack)).toEqual([
      { kind: 'add', job: 'police', grade: 2 },
    ]);
    expect(planJobs(beside('taxi', 1, { police: 2 }), want('police', 2), settingBack)).toEqual([]);
    // Their own managed job at a wrong grade is still set back.
    expect(planJobs(held('police', 5), want('police', 2), settingBack)).toEqual([
      { kind: 'set', job: 'police', grade: 2 },
    ]);
  });

  it('multi-job: setting back a job beside an unmanaged primary job never makes it primary', () => {
    const multi: PlanContext = { ...single, style: 'multi', settingBack: true };
    expect(planJobs(beside('taxi', 0, { police: 4 }), want('police', 2), multi)).toEqual([
      { kind: 'add', job: 'police', grade: 2 },
    ]);
    expect(
      planJobs(beside('taxi', 0, { police: 4 }), want('police', 2), { ...multi, settingBack: false }),
    ).toEqual([
      { kind: 'add', job: 'police', grade: 2 },
      { kind: 'primary', job: 'police' },
    ]);
  });
});

describe('wrongManagedJob', () => {
  it('a managed job or grade the roster does not give is wrong; an unmanaged one (a taxi shift) is not', () => {
    expect(wrongManagedJob(held('police', 0), want('police', 2), single)).toEqual({
      job: 'police',
      grade: 0,
    });
    expect(wrongManagedJob(held('ambulance', 1), want('police', 2), single)).toEqual({
      job: 'ambulance',
      grade: 1,
    });
    expect(wrongManagedJob(held('taxi', 0), want('police', 2), single)).toBeNull();
    expect(wrongManagedJob(held('police', 2), want('police', 2), single)).toBeNull();
  });

  it('a managed group beside the job counts as much as the job', () => {
    expect(wrongManagedJob(held('taxi', 1, { taxi: 1, police: 5 }), null, single)).toEqual({
      job: 'police',
      grade: 5,
    });
    expect(wrongManagedJob(held('taxi', 1, { taxi: 1, police: 2 }), want('police', 2), single)).toBeNull();
  });
});
