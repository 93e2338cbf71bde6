import { afterEach, expect, it } from 'vitest';
import { LICENSE, standIn } from './stand-in-rig';

// The ND_Core stand-in behaves as ND_Core's source does (server/player.lua).
type Rig = Awaited<ReturnType<typeof standIn>>;
let rig: Rig;
afterEach(() => rig.server.stop());

type Character = {
  job?: string;
  groups: Record<string, { rank: number; label: string }>;
  setJob(name: string, rank?: number): unknown;
  save(key?: string): unknown;
};

it('groups arrive about a second after start, with no server event', async () => {
  rig = await standIn('ND_Core', { lua: true });
  expect(rig.ex().getAllGroups!()).toEqual([]);
  expect(rig.ex().doesGroupExist!('lspd')).toBe(false);
  await rig.frames(30);
  const groups = rig.ex().getAllGroups!() as { name: string; ranks: { weight: number }[] }[];
  expect(groups.map((g) => g.name)).toEqual(['lspd', 'safr', 'taxi']);
  expect(groups[0]!.ranks[0]!.weight).toBe(1);
});

it('setJob takes any name, is not a no-op for the same job, and is saved only by save("groups")', async () => {
  rig = await standIn('ND_Core', { lua: true });
  const id = await rig.join(LICENSE);
  await rig.ex().setActiveCharacter!(id, 5);
  rig.listen('ND:groupRemoved', 'ND:groupAdded');
  const character = rig.ex().getPlayer!(id) as Character;
  character.setJob('nosuchgroup', 2);
  expect((rig.ex().getPlayer!(id) as Character).groups.nosuchgroup).toMatchObject({
    rank: 2,
    label: 'nosuchgroup',
  });
  character.setJob('nosuchgroup', 2);
  expect(rig.events.map(([name]) => name)).toEqual(['ND:groupAdded', 'ND:groupRemoved', 'ND:groupAdded']);
  expect(rig.ex().StandInSaved!(5)).toBeUndefined();
  await character.save('groups');
  expect(rig.ex().StandInSaved!(5)).toEqual({ groups: { nosuchgroup: { rank: 2, isJob: true } } });
  expect(rig.ex().getPlayer!(String(id))).toBeUndefined(); // by number only
});
