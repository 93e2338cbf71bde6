import { afterEach, expect, it } from 'vitest';
import { LICENSE, standIn } from './stand-in-rig';

// The Qbox stand-in behaves as qbx_core's source does (server/player.lua).
type Rig = Awaited<ReturnType<typeof standIn>>;
let rig: Rig;
afterEach(() => rig.server.stop());

type Job = { name: string; grade: { level: number }; onduty: boolean };
const job = (id: number) => (rig.ex().GetPlayer!(id) as { PlayerData: { job: Job } }).PlayerData.job;

it('SetJob returns plain false for an unknown job or grade, and throws for a name that is not a string', async () => {
  rig = await standIn('qbx_core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.ex().Login!(id, 'C1');
  expect(rig.ex().SetJob!(id, 'sheriff', 0)).toBe(false);
  expect(rig.ex().SetJob!(id, 'police', 9)).toBe(false);
  expect(() => rig.ex().SetJob!(id, 5, 0)).toThrow();
  expect(rig.ex().AddPlayerToJob!('C1', 'police', 9)).toEqual([
    false,
    { code: 'job_missing_grade', message: 'police has no grade 9' },
  ]);
});

it('SetJob with the same job and grade is not a no-op: the job is removed, added back and duty reset', async () => {
  rig = await standIn('qbx_core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.ex().Login!(id, 'C1');
  expect(rig.ex().SetJob!(id, 'police', 2)).toBe(true);
  rig.ex().SetJobDuty!(id, false);
  rig.listen('QBCore:Server:OnJobUpdate', 'qbx_core:server:onGroupUpdate');
  expect(rig.ex().SetJob!(id, 'police', 2)).toBe(true);
  expect(job(id).onduty).toBe(true);
  expect(rig.events.map(([name, args]) => [name, args.slice(1)])).toEqual([
    ['qbx_core:server:onGroupUpdate', ['police']],
    ['qbx_core:server:onGroupUpdate', ['police', 2]],
    ['QBCore:Server:OnJobUpdate', [expect.objectContaining({ name: 'police' })]],
  ]);
});

it('removing the primary job fires only onGroupUpdate, and the character becomes unemployed', async () => {
  rig = await standIn('qbx_core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.ex().Login!(id, 'C1');
  rig.ex().SetJob!(id, 'police', 1);
  rig.listen('QBCore:Server:OnJobUpdate', 'qbx_core:server:onGroupUpdate');
  expect(rig.ex().RemovePlayerFromJob!('C1', 'police')).toBe(true);
  expect(job(id).name).toBe('unemployed');
  expect(rig.events.map(([name]) => name)).toEqual(['qbx_core:server:onGroupUpdate']);
});

it('one job per character by default (max_jobs); more with qbx:max_jobs_per_player', async () => {
  rig = await standIn('qbx_core', { lua: true });
  await rig.join(LICENSE);
  rig.ex().Login!(1, 'C1');
  rig.ex().AddPlayerToJob!('C1', 'police', 1);
  expect(rig.ex().AddPlayerToJob!('C1', 'ambulance', 1)).toEqual([
    false,
    { code: 'max_jobs', message: 'too many jobs' },
  ]);
  rig.server.stop();
  rig = await standIn('qbx_core', { lua: true, convars: { 'qbx:max_jobs_per_player': '3' } });
  await rig.join(LICENSE);
  rig.ex().Login!(1, 'C1');
  rig.ex().AddPlayerToJob!('C1', 'police', 1);
  expect(rig.ex().AddPlayerToJob!('C1', 'ambulance', 1)).toBe(true);
});

it('jobs are saved by a background thread, shortly after the call returns', async () => {
  rig = await standIn('qbx_core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.ex().Login!(id, 'C1');
  await rig.frames(2);
  rig.ex().SetJob!(id, 'police', 3);
  expect(rig.ex().StandInSaved!('C1')).toMatchObject({ job: 'unemployed' });
  await rig.frames(2);
  expect(rig.ex().StandInSaved!('C1')).toMatchObject({ job: 'police', grade: 3 });
});
