import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// Job sync against the ESX stand-in (dev/frameworks/es_extended, Lua), from the bundle.
type Job = { name: string; grade: number; onDuty: boolean };

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const ESX = { resource: 'es_extended', lua: true };
const DEPARTMENTS = {
  LSPD: { job: 'police', grades: { Cadet: 0, Officer: 1, Sergeant: 2, Lieutenant: 3, Chief: 4 } },
  BCSO: { job: 'police', grades: { Deputy: 12 } },
};
const SAVE_ACE = [['resource.roster', 'command.save', 'allow']] as const;
const esx = () => rig.ex('es_extended');
const jobOf = (id: number) => esx().RunStaticPlayerMethod!(id, 'getJob') as Job;
const calls = () => esx().StandInCalls!() as Record<string, number>;
const settle = async (frames = 6) => {
  const until = rig.h.server.frames + frames;
  await eventually(() => rig.h.server.frames >= until);
};

async function loaded(rank = 'Officer', charId = 1) {
  const joined = await rig.join('LSPD', rank);
  const identifier = (await esx().Load!(joined.id, charId)) as string;
  await eventually(() => jobOf(joined.id).name === 'police');
  // The client reports its spawn after the load; only from then does ESX's save write anything.
  rig.h.server.emitNet('esx:onPlayerSpawn', joined.id);
  return { ...joined, identifier };
}

describe('ESX', () => {
  it('validates once the jobs are read from the database, then sets the job, keeps duty and saves', async () => {
    rig = await startJobsRig({ framework: ESX, departments: DEPARTMENTS, aces: SAVE_ACE });
    await eventually(() => rig.h.logText().includes('jobs.departments.BCSO (police) is left out'), 15_000);
    expect(rig.h.logText()).not.toMatch(/LSPD.*left out/);
    const { id, member, identifier } = await loaded('Officer');
    expect(jobOf(id).grade).toBe(1);
    // Asked to save at load, ESX wrote nothing: the character had not spawned yet.
    await eventually(() => calls().save === 1);
    expect(esx().StandInSaved!(identifier)).toBeUndefined();
    esx().RunStaticPlayerMethod!(id, 'setJob', 'police', 1, false); // off duty, same job: nothing to set back
    await settle();
    await rig.promote(id, member, 'LSPD', 'Lieutenant');
    await eventually(() => jobOf(id).grade === 3);
    expect(jobOf(id).onDuty).toBe(false);
    await eventually(() => (esx().StandInSaved!(identifier) as Job | undefined)?.grade === 3);
  });

  it('esx:setJob fires for every setJob, ours too: still one write per change', async () => {
    rig = await startJobsRig({ framework: ESX, departments: DEPARTMENTS, aces: SAVE_ACE });
    const { id } = await loaded('Sergeant');
    await settle(10);
    expect(calls().setJob).toBe(1);
    esx().RunStaticPlayerMethod!(id, 'setJob', 'police', 0);
    await eventually(() => jobOf(id).grade === 2);
    await settle(10);
    expect(calls().setJob).toBe(3);
  });

  it('without command.save the job is still set and the console says why it is not saved', async () => {
    rig = await startJobsRig({ framework: ESX, departments: DEPARTMENTS });
    const { id } = await loaded('Sergeant');
    expect(jobOf(id).grade).toBe(2);
    await eventually(() =>
      rig.h.server.log.of('server').join('\n').includes('Access denied for command save'),
    );
  });

  it('a job added at runtime (esx:jobsRefreshed) is validated again: a mapping left out comes into use', async () => {
    rig = await startJobsRig({
      framework: ESX,
      departments: { ...DEPARTMENTS, BCSO: { job: 'sheriff' } },
      aces: SAVE_ACE,
    });
    await rig.console('roster doctor', /✗ BCSO → sheriff: left out/);
    esx().StandInAddJob!('sheriff', 'BCSO', ['recruit', 'deputy', 'sergeant']);
    await rig.console('roster doctor', /✓ BCSO → sheriff: .*Deputy→1 \(by name\)/);
  });

  it('a member removed from the roster gets jobs.unassigned', async () => {
    rig = await startJobsRig({ framework: ESX, departments: DEPARTMENTS, aces: SAVE_ACE });
    const { id, member } = await loaded('Sergeant');
    rig.h.mock.data.removeMember(member.id);
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => jobOf(id).name === 'unemployed');
  });
});
