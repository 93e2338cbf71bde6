import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn } from '../harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// Job sync against the ox_core stand-in (dev/frameworks/ox_core, TypeScript).
let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const OX = { resource: 'ox_core', lua: false };
const DEPARTMENTS = {
  LSPD: { job: 'police', grades: { Cadet: 1, Officer: 2, Sergeant: 3, Lieutenant: 4, Chief: 5 } },
  SAFR: { job: 'ems' },
  SAHP: { job: 'police', grades: { Trooper: 0 } },
};
const ox = () => rig.ex('ox_core');
const groups = async (id: number) => (await ox().CallPlayer!(id, 'getGroups')) as Record<string, number>;
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not met in time');
};

describe('ox_core', () => {
  it('grades are 1-based; grade 0 (which would remove the group) is refused at validation', async () => {
    rig = await startJobsRig({ framework: OX, departments: DEPARTMENTS });
    await eventually(() => rig.h.logText().includes('jobs.departments.SAHP (police) is left out'), 15_000);
    expect(rig.h.logText()).toContain('job "police" has no grade 0 (for Trooper)');
    const { id } = await rig.join('LSPD', 'Sergeant');
    ox().Login!(id, 11);
    await waitFor(async () => (await groups(id)).police === 3);
    expect(ox().StandInSaved!(11)).toEqual({ police: 3 });
  });

  it('moving to another department of the same group type removes the old group first', async () => {
    rig = await startJobsRig({ framework: OX, departments: DEPARTMENTS });
    const { id, member } = await rig.join('LSPD', 'Officer');
    ox().Login!(id, 12);
    await waitFor(async () => (await groups(id)).police === 2);
    const store = rig.h.mock.data;
    const assignment = store.assignmentsOf(member.id)[0]!;
    assignment.departmentId = 'dept_safr';
    assignment.rankId = store.rankByName('SAFR', 'Captain').id;
    await rig.ex('roster').refreshPlayer!(id);
    await waitFor(async () => JSON.stringify(await groups(id)) === JSON.stringify({ ems: 3 }));
  });

  it('a member who no longer qualifies loses the group; an admin setGroup is set back', async () => {
    rig = await startJobsRig({ framework: OX, departments: DEPARTMENTS });
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    ox().Login!(id, 13);
    await waitFor(async () => (await groups(id)).police === 3);
    await ox().CallPlayer!(id, 'setGroup', 'police', 5);
    await waitFor(async () => (await groups(id)).police === 3);
    expect(rig.h.logText()).toMatch(/was put into police grade 5 by something else; the roster decides/);
    rig.h.mock.data.setMemberStatus(member.id, 'INACTIVE');
    await rig.ex('roster').refreshPlayer!(id);
    await waitFor(async () => (await groups(id)).police === undefined);
  });

  it('every group counts: a suspended member loses police held beside another group, which stays', async () => {
    rig = await startJobsRig({ framework: OX, departments: DEPARTMENTS });
    const { id, member } = await rig.join('LSPD', 'Officer');
    ox().Login!(id, 14);
    await waitFor(async () => (await groups(id)).police === 2);
    expect(await ox().CallPlayer!(id, 'setGroup', 'mechanic', 2)).toBe(true);
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await waitFor(async () => JSON.stringify(await groups(id)) === JSON.stringify({ mechanic: 2 }));
  });

  it("another resource's setGroup('police', 5) on a non-member is taken away within a second", async () => {
    rig = await startJobsRig({ framework: OX, departments: DEPARTMENTS });
    await eventually(() => rig.h.logText().includes('jobs.departments.SAHP (police) is left out'), 15_000);
    const { id } = await rig.join('SAHP', 'Trooper'); // its mapping is left out: no job from the roster
    ox().Login!(id, 15);
    const loaded = rig.h.server.frames + 10; // the load's pass has run: what follows is a change
    await eventually(() => rig.h.server.frames >= loaded);
    expect(await ox().CallPlayer!(id, 'setGroup', 'police', 5)).toBe(true);
    const from = rig.h.server.frames;
    await waitFor(async () => (await groups(id)).police === undefined);
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    expect(rig.h.logText()).toMatch(
      /was put into police grade 5 by something else; the roster decides: the roster gives them no police/,
    );
  });
});
