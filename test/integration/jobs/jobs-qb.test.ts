import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// Job sync against the QBCore stand-in (dev/frameworks/qb-core, Lua), from the bundle.
type Job = { name: string; grade: { level: number; name: string }; onduty: boolean };

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const QB = { resource: 'qb-core', lua: true };
const DEPARTMENTS = {
  LSPD: { job: 'police', grades: { Cadet: 0, Officer: 1, Sergeant: 2, Lieutenant: 3, Chief: 4 } },
  SAHP: { job: 'police', grades: { Trooper: 7 } },
};
const qb = () => rig.ex('qb-core');
const jobOf = async (id: number) => {
  const core = (await qb().GetCoreObject!()) as { Functions: { GetPlayer(src: number): Promise<unknown> } };
  const player = (await core.Functions.GetPlayer(id)) as { PlayerData: { job: Job } };
  return player.PlayerData.job;
};
const calls = () => qb().StandInCalls!() as Record<string, number>;
const settle = async (frames = 6) => {
  const until = rig.h.server.frames + frames;
  await eventually(() => rig.h.server.frames >= until);
};
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not met in time');
};

describe('QBCore', () => {
  it('load sets the job through the core object, saves it, and a promotion keeps duty', async () => {
    rig = await startJobsRig({ framework: QB, departments: DEPARTMENTS });
    const { id, member } = await rig.join('LSPD', 'Officer');
    qb().Login!(id, 'QB1');
    await waitFor(async () => (await jobOf(id)).name === 'police');
    expect((await jobOf(id)).grade.level).toBe(1);
    await waitFor(async () => (calls().Save ?? 0) >= 1);
    expect(qb().StandInSaved!('QB1')).toEqual({ job: 'police', grade: 1 });
    const core = (await qb().GetCoreObject!()) as { Functions: { GetPlayer(src: number): Promise<unknown> } };
    const player = (await core.Functions.GetPlayer(id)) as { Functions: { SetJobDuty(on: boolean): void } };
    player.Functions.SetJobDuty(false);
    await rig.promote(id, member, 'LSPD', 'Sergeant');
    await waitFor(async () => (await jobOf(id)).grade.level === 2);
    expect((await jobOf(id)).onduty).toBe(false);
    expect(qb().StandInSaved!('QB1')).toEqual({ job: 'police', grade: 2 });
  });

  it('a grade QBCore would take silently (it has no grade 7) is refused at validation and never written', async () => {
    rig = await startJobsRig({ framework: QB, departments: DEPARTMENTS });
    await eventually(() => rig.h.logText().includes('jobs.departments.SAHP (police) is left out'), 15_000);
    const { id } = await rig.join('SAHP', 'Trooper');
    qb().Login!(id, 'QB2');
    await settle(10);
    expect((await jobOf(id)).name).toBe('unemployed');
    expect(calls().SetJob ?? 0).toBe(0);
  });

  it('the login OnJobUpdate and our own events cause no second write; an admin setjob is set back', async () => {
    rig = await startJobsRig({ framework: QB, departments: DEPARTMENTS });
    const { id } = await rig.join('LSPD', 'Sergeant');
    qb().Login!(id, 'QB3');
    await waitFor(async () => (await jobOf(id)).grade.level === 2);
    await settle(10);
    expect(calls().SetJob).toBe(1);
    const core = (await qb().GetCoreObject!()) as { Functions: { GetPlayer(src: number): Promise<unknown> } };
    const player = (await core.Functions.GetPlayer(id)) as {
      Functions: { SetJob(j: string, g: number): void };
    };
    player.Functions.SetJob('police', 4);
    await waitFor(async () => (await jobOf(id)).grade.level === 2 && (calls().SetJob ?? 0) === 3);
    expect(rig.h.logText()).toMatch(/was put into police grade 4 by something else; the roster decides/);
  });

  it('a jobs.unassigned grade QBCore lacks is named and never written: the character keeps its job', async () => {
    rig = await startJobsRig({
      framework: QB,
      departments: DEPARTMENTS,
      unassigned: { job: 'unemployed', grade: 5 },
    });
    const doctor = await rig.console('roster doctor', /✗ jobs\.unassigned/);
    expect(doctor).toContain(
      '✗ jobs.unassigned: job "unemployed" has no grade 5; a character losing a managed job keeps it',
    );
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    qb().Login!(id, 'QB5');
    await waitFor(async () => (await jobOf(id)).name === 'police');
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await settle(10);
    expect(await jobOf(id)).toMatchObject({ name: 'police', grade: { level: 2 } });
    expect(calls().SetJob).toBe(1);
  });

  it('old qb-core (only GetCoreObject, OnJobUpdate from SetJob itself, players by number) works the same', async () => {
    rig = await startJobsRig({
      framework: QB,
      departments: DEPARTMENTS,
      convars: { qb_standin_version: 'old' },
    });
    const { id, member } = await rig.join('LSPD', 'Officer');
    qb().Login!(id, 'QB6');
    await waitFor(async () => (await jobOf(id)).grade.level === 1);
    await rig.promote(id, member, 'LSPD', 'Chief');
    await waitFor(async () => (await jobOf(id)).grade.level === 4);
    await settle(10);
    expect(calls().SetJob).toBe(2);
    expect(qb().StandInSaved!('QB6')).toEqual({ job: 'police', grade: 4 });
  });

  it('a suspended member gets jobs.unassigned', async () => {
    rig = await startJobsRig({ framework: QB, departments: DEPARTMENTS });
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    qb().Login!(id, 'QB4');
    await waitFor(async () => (await jobOf(id)).name === 'police');
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await waitFor(async () => (await jobOf(id)).name === 'unemployed');
  });
});
