import { afterEach, expect, it } from 'vitest';
import { LICENSE, standIn } from './stand-in-rig';

// The QBCore stand-in behaves as qb-core's source does (server/player.lua).
type Rig = Awaited<ReturnType<typeof standIn>>;
let rig: Rig;
afterEach(() => rig.server.stop());

type Player = {
  PlayerData: { job: { name: string; grade: { level: number; name: string }; onduty: boolean } };
  Functions: Record<string, (...args: unknown[]) => unknown>;
};
const player = async (id: number) => {
  const core = (await rig.ex().GetCoreObject!()) as { Functions: { GetPlayer(src: unknown): Player } };
  return core.Functions.GetPlayer(id);
};

it('an unknown grade is taken silently: level 0, "No Grades", and SetJob answers true', async () => {
  rig = await standIn('qb-core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.ex().Login!(id, 'Q1');
  const p = await player(id);
  expect(p.Functions.SetJob!('police', 9)).toBe(true);
  expect((await player(id)).PlayerData.job.grade).toEqual({ name: 'No Grades', level: 0 });
  expect(p.Functions.SetJob!('sheriff', 0)).toBe(false);
});

it('SetJob always resets duty, fires OnJobUpdate (through OnPlayerUpdated) and does not save', async () => {
  rig = await standIn('qb-core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.listen('QBCore:Server:OnJobUpdate');
  rig.ex().Login!(id, 'Q1');
  expect(rig.events).toHaveLength(1); // UpdateClient() at login fires it too
  const p = await player(id);
  p.Functions.SetJob!('police', 2);
  p.Functions.SetJobDuty!(false);
  p.Functions.SetJob!('police', 2);
  expect((await player(id)).PlayerData.job.onduty).toBe(true);
  expect(rig.events).toHaveLength(4);
  expect(rig.ex().StandInSaved!('Q1')).toBeUndefined();
  p.Functions.Save!();
  expect(rig.ex().StandInSaved!('Q1')).toEqual({ job: 'police', grade: 2 });
});

it('a server id as a string finds the player too (ebae2c3 and later)', async () => {
  rig = await standIn('qb-core', { lua: true });
  const id = await rig.join(LICENSE);
  rig.ex().Login!(id, 'Q1');
  const core = (await rig.ex().GetCoreObject!()) as { Functions: { GetPlayer(src: unknown): unknown } };
  expect(core.Functions.GetPlayer(String(id))).toBeTruthy();
});

it('old qb-core: a numeric string finds no player, and SetJob fires OnJobUpdate itself', async () => {
  rig = await standIn('qb-core', { lua: true, convars: { qb_standin_version: 'old' } });
  const id = await rig.join(LICENSE);
  rig.listen('QBCore:Server:OnJobUpdate', 'QBCore:Server:OnPlayerUpdated');
  rig.ex().Login!(id, 'Q1');
  const core = (await rig.ex().GetCoreObject!()) as { Functions: { GetPlayer(src: unknown): unknown } };
  expect(core.Functions.GetPlayer(String(id))).toBeUndefined();
  (await player(id)).Functions.SetJob!('police', 1);
  expect(rig.events.map(([name]) => name)).toEqual(['QBCore:Server:OnJobUpdate']);
});
