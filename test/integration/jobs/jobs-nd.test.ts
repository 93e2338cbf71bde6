import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn } from '../harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// Job sync against the ND_Core stand-in (dev/frameworks/ND_Core, Lua), from the bundle.
type Character = { job?: string; groups: Record<string, { rank: number; isJob?: boolean }> };
type Methods = {
  setJob(name: string, rank: number, custom?: unknown, keepGroup?: boolean): unknown;
  addGroup(name: string, rank: number, custom?: unknown, isJob?: boolean): unknown;
};

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const ND = { resource: 'ND_Core', lua: true };
const DEPARTMENTS = {
  LSPD: { job: 'lspd', grades: { Cadet: 1, Officer: 2, Sergeant: 3, Lieutenant: 4, Chief: 5 } },
  SAFR: { job: 'safr' },
};
const nd = () => rig.ex('ND_Core');
const character = (id: number) => nd().getPlayer!(id) as Character | undefined;
const calls = () => nd().StandInCalls!() as Record<string, number>;

describe('ND_Core', () => {
  it('waits for the groups that arrive after start, then sets the 1-based rank and saves the groups', async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    await rig.console('roster doctor', /✓ LSPD → lspd/);
    // Judged only once the list was there: an empty list never made a mapping "missing".
    expect(rig.h.logText()).not.toContain('left out');
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    await nd().setActiveCharacter!(id, 21);
    await eventually(() => character(id)?.groups.lspd?.rank === 3);
    await eventually(() => (calls().save ?? 0) >= 1);
    expect(nd().StandInSaved!(21)).toEqual({ groups: { lspd: { rank: 3, isJob: true } } });
    const setJobs = calls().setJob ?? 0;
    await rig.promote(id, member, 'LSPD', 'Chief');
    await eventually(() => character(id)?.groups.lspd?.rank === 5);
    expect(calls().setJob).toBe(setJobs + 1);
  });

  it('an admin setJob to another rank is set back, with one setJob and no loop through ND events', async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    const { id } = await rig.join('LSPD', 'Officer');
    await nd().setActiveCharacter!(id, 23);
    await eventually(() => character(id)?.groups.lspd?.rank === 2);
    await eventually(() => calls().setJob === 1);
    (nd().getPlayer!(id) as Character & { setJob(n: string, r: number): unknown }).setJob('lspd', 5);
    await eventually(() => calls().setJob === 3 && character(id)?.groups.lspd?.rank === 2);
    const until = rig.h.server.frames + 10;
    await eventually(() => rig.h.server.frames >= until);
    expect(calls().setJob).toBe(3);
    expect(rig.h.logText()).toMatch(
      /was put into lspd grade 5 by something else; the roster decides: set back to lspd grade 2/,
    );
  });

  it('SAFR by rank label; a member who no longer qualifies loses the group', async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    const { id, member } = await rig.join('SAFR', 'Captain');
    await nd().setActiveCharacter!(id, 22);
    await eventually(() => character(id)?.job === 'safr');
    expect(character(id)?.groups.safr?.rank).toBe(3);
    rig.h.mock.data.setMemberStatus(member.id, 'TERMINATED');
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => character(id)?.groups.safr === undefined);
  });

  it('a side job kept by keepGroup: the lspd group beside it is left alone, and lost once the member is suspended', async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    const { id, member } = await rig.join('LSPD', 'Officer');
    await nd().setActiveCharacter!(id, 24);
    await eventually(() => character(id)?.job === 'lspd' && character(id)?.groups.lspd?.rank === 2);
    // A job script's side job: ND_Core keeps lspd as a group beside taxi.
    (nd().getPlayer!(id) as Methods).setJob('taxi', 1, null, true);
    await eventually(() => character(id)?.job === 'taxi');
    const until = rig.h.server.frames + 10;
    await eventually(() => rig.h.server.frames >= until);
    expect(character(id)?.job).toBe('taxi');
    expect(character(id)?.groups.lspd).toMatchObject({ rank: 2 });
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => character(id)?.groups.lspd === undefined);
    // The side job is theirs: only the managed group went.
    expect(character(id)?.job).toBe('taxi');
    expect(character(id)?.groups.taxi).toMatchObject({ rank: 1 });
    const saved = () => nd().StandInSaved!(24) as { groups: Record<string, unknown> } | undefined;
    await eventually(() => saved()?.groups.lspd === undefined);
  });

  it("another resource's addGroup('lspd', 5) on a non-member is taken away within a second", async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    const { id } = await rig.join('SAFR', 'Captain');
    await nd().setActiveCharacter!(id, 25);
    await eventually(() => character(id)?.job === 'safr');
    (nd().getPlayer!(id) as Methods).addGroup('lspd', 5);
    const from = rig.h.server.frames;
    await eventually(() => character(id)?.groups.lspd === undefined);
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    expect(character(id)?.job).toBe('safr');
    expect(character(id)?.groups.safr).toMatchObject({ rank: 3, isJob: true });
    expect(rig.h.logText()).toMatch(
      /was put into lspd grade 5 by something else; the roster decides: the roster gives them no lspd/,
    );
  });

  it("addGroup at another rank beside a member's side job is set to the roster's rank, the side job kept", async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    const { id } = await rig.join('LSPD', 'Sergeant');
    await nd().setActiveCharacter!(id, 26);
    await eventually(() => character(id)?.groups.lspd?.rank === 3);
    (nd().getPlayer!(id) as Methods).setJob('taxi', 1, null, true);
    await eventually(() => character(id)?.job === 'taxi');
    (nd().getPlayer!(id) as Methods).addGroup('lspd', 5);
    const from = rig.h.server.frames;
    expect(character(id)?.groups.lspd?.rank).toBe(5);
    await eventually(() => character(id)?.groups.lspd?.rank === 3);
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    expect(character(id)?.job).toBe('taxi');
    expect(character(id)?.groups.lspd?.isJob).toBeFalsy();
  });

  it('addGroup with the job flag, which fires no character update, is seen and set back too', async () => {
    rig = await startJobsRig({ framework: ND, departments: DEPARTMENTS });
    const { id } = await rig.join('SAFR', 'Captain');
    await nd().setActiveCharacter!(id, 27);
    await eventually(() => character(id)?.job === 'safr');
    const until = rig.h.server.frames + 10;
    await eventually(() => rig.h.server.frames >= until);
    (nd().getPlayer!(id) as Methods).addGroup('lspd', 4, null, true);
    expect(character(id)?.groups.lspd?.isJob).toBe(true);
    await eventually(() => character(id)?.groups.lspd === undefined);
    expect(character(id)?.groups.safr).toMatchObject({ rank: 3 });
  });
});
