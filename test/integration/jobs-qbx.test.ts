import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from './harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

type Job = { name: string; grade: { level: number }; onduty: boolean };

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const QBX = { resource: 'qbx_core', lua: true };
const jobOf = (id: number) =>
  (rig.ex('qbx_core').GetPlayer!(id) as { PlayerData: { job: Job } }).PlayerData.job;
const calls = () => rig.ex('qbx_core').StandInCalls!() as Record<string, number>;

describe('Qbox: the roster drives the job', () => {
  it('a character loading gets the job of their department at their rank, with one SetJob', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id } = await rig.join('LSPD', 'Sergeant');
    const changes: unknown[] = [];
    rig.h.caller.on('roster:jobChanged', (src: unknown, change: unknown) => changes.push([src, change]));
    rig.ex('qbx_core').Login!(id, 'CID1');
    await eventually(() => jobOf(id).name === 'police');
    expect(jobOf(id).grade.level).toBe(2);
    expect(calls().SetJob).toBe(1);
    await eventually(() => changes.length > 0);
    expect(changes).toEqual([[id, { job: 'police', grade: 2, previous: { job: 'unemployed', grade: 0 } }]]);
    expect(rig.ex('roster').getJob!(id)).toEqual({ job: 'police', grade: 2 });
  });

  it('a promotion on the roster changes the grade and keeps duty', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await rig.join('LSPD', 'Officer');
    rig.ex('qbx_core').Login!(id, 'CID1');
    await eventually(() => jobOf(id).name === 'police');
    rig.ex('qbx_core').SetJobDuty!(id, false);
    await rig.promote(id, member, 'LSPD', 'Lieutenant');
    await eventually(() => jobOf(id).grade.level === 3);
    await eventually(() => calls().SetJobDuty === 2);
    expect(jobOf(id).onduty).toBe(false);
  });
});
