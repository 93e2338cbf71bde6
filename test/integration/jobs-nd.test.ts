import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from './harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// CONTRACT.md section 12 against the ND_Core stand-in (dev/frameworks/ND_Core, Lua), from the bundle.
type Character = { job?: string; groups: Record<string, { rank: number }> };

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
});
