import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn } from '../harness';
import { type JobsRig, QBOX_DEPARTMENTS, startJobsRig } from './jobs-harness';

// Job sync against the Qbox stand-in (dev/frameworks/qbx_core, Lua), from the bundle.
type Job = { name: string; grade: { level: number }; onduty: boolean };
type PlayerData = { job: Job; jobs: Record<string, number> | unknown[] };

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const QBX = { resource: 'qbx_core', lua: true };
const qbx = () => rig.ex('qbx_core');
const data = (id: number) => (qbx().GetPlayer!(id) as { PlayerData: PlayerData }).PlayerData;
const jobOf = (id: number) => data(id).job;
const calls = () => qbx().StandInCalls!() as Record<string, number>;
const heldAt = (id: number, job: string, level: number) =>
  jobOf(id).name === job && jobOf(id).grade.level === level;
/** Settles a moment after the last write (the stand-in persists on the next frame). */
const settle = async (frames = 4) => {
  const until = rig.h.server.frames + frames;
  await eventually(() => rig.h.server.frames >= until);
};

async function loaded(department = 'LSPD', rank = 'Sergeant', cid = 'CID1') {
  const joined = await rig.join(department, rank);
  qbx().Login!(joined.id, cid);
  await eventually(() => jobOf(joined.id).name !== 'unemployed');
  return joined;
}

describe('Qbox: when the roster writes the job', () => {
  it('a character loading gets their department job at their rank: one SetJob, then roster:jobChanged', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id } = await rig.join('LSPD', 'Sergeant');
    const changes: unknown[] = [];
    rig.h.caller.on('roster:jobChanged', (src: unknown, change: unknown) => changes.push([src, change]));
    qbx().Login!(id, 'CID1');
    await eventually(() => changes.length > 0);
    expect(heldAt(id, 'police', 2)).toBe(true);
    await settle();
    expect(calls().SetJob).toBe(1);
    expect(changes).toEqual([[id, { job: 'police', grade: 2, previous: { job: 'unemployed', grade: 0 } }]]);
    expect(rig.ex('roster').getJob!(id)).toEqual({ job: 'police', grade: 2 });
    expect(rig.ex('roster').getJob!(9999)).toBeNull();
  });

  it('a promotion on the roster reaches the grade within a second and keeps duty', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await loaded('LSPD', 'Officer');
    qbx().SetJobDuty!(id, false);
    await rig.promote(id, member, 'LSPD', 'Lieutenant');
    const from = rig.h.server.frames;
    await eventually(() => heldAt(id, 'police', 3));
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    await eventually(() => calls().SetJobDuty === 2);
    expect(jobOf(id).onduty).toBe(false);
  });

  it('a rank with no grade of its own gets the nearest more junior one; grades by name where none are listed', async () => {
    rig = await startJobsRig({ framework: QBX });
    const police = await loaded('LSPD', 'Senior Officer');
    expect(heldAt(police.id, 'police', 1)).toBe(true); // Officer's grade
    const fire = await loaded('SAFR', 'Battalion Chief', 'CID2');
    expect(heldAt(fire.id, 'ambulance', 3)).toBe(true); // Captain, matched by name
  });

  it('only what differs is written: refreshes with nothing new and the framework’s own events call nothing', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id } = await loaded();
    await settle();
    const before = { ...calls() };
    await rig.ex('roster').refreshPlayer!(id);
    await rig.ex('roster').refreshPlayer!(id);
    await settle(10);
    expect(calls()).toEqual(before);
  });

  it('a member who no longer qualifies gets jobs.unassigned; one holding an unmanaged job keeps it', async () => {
    rig = await startJobsRig({ framework: QBX, unassigned: { job: 'taxi', grade: 0 } });
    const officer = await loaded();
    rig.h.mock.data.setMemberStatus(officer.member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(officer.id);
    await eventually(() => heldAt(officer.id, 'taxi', 0));
    expect(rig.ex('roster').getJob!(officer.id)).toBeNull();

    const other = await loaded('LSPD', 'Cadet', 'CID2');
    qbx().SetJob!(other.id, 'taxi', 0); // a taxi shift: left alone
    await settle(10);
    expect(heldAt(other.id, 'taxi', 0)).toBe(true);
  });

  it('offline characters are never written; every character of the license gets the roster job when it loads', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await loaded('LSPD', 'Officer');
    qbx().Logout!(id);
    await settle();
    const setJobs = calls().SetJob;
    await rig.promote(id, member, 'LSPD', 'Chief');
    await settle(10);
    expect(calls().SetJob).toBe(setJobs);
    expect(qbx().StandInSaved!('CID1')).toMatchObject({ job: 'police', grade: 1 });
    qbx().Login!(id, 'CID2');
    await eventually(() => heldAt(id, 'police', 4));
    qbx().Logout!(id);
    qbx().Login!(id, 'CID1');
    await eventually(() => heldAt(id, 'police', 4));
  });
});

describe('Qbox: something else changes a managed job', () => {
  it('an admin’s SetJob to another grade is set back within a second, and the console says so', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id } = await loaded('LSPD', 'Sergeant');
    qbx().SetJob!(id, 'police', 0);
    const from = rig.h.server.frames;
    await eventually(() => heldAt(id, 'police', 2));
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    expect(rig.h.logText()).toMatch(
      /Officer Test \(\d+\) was put into police grade 0 by something else; the roster decides: set back to police grade 2/,
    );
  });

  it('a character put into a managed job the roster does not give is set back', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id } = await loaded('LSPD', 'Sergeant');
    qbx().SetJob!(id, 'ambulance', 1);
    await eventually(() => heldAt(id, 'police', 2));
  });

  it('a character who left for an unmanaged job is left alone until the next roster change', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await loaded('LSPD', 'Officer');
    qbx().SetJob!(id, 'taxi', 0);
    await settle(10);
    expect(heldAt(id, 'taxi', 0)).toBe(true);
    await rig.promote(id, member, 'LSPD', 'Sergeant');
    await eventually(() => heldAt(id, 'police', 2));
  });
});

describe('Qbox: validation', () => {
  it('a job or grade the framework lacks is named once and that mapping left out; doctor shows ✓ and ✗', async () => {
    rig = await startJobsRig({
      framework: QBX,
      departments: {
        ...QBOX_DEPARTMENTS,
        BCSO: { job: 'sheriff' },
        SAHP: { job: 'police', grades: { Trooper: 9 } },
      },
    });
    await eventually(() => rig.h.logText().includes('jobs.departments.SAHP'));
    const log = rig.h.logText();
    expect(log).toContain('jobs.departments.BCSO (sheriff) is left out: the framework has no job "sheriff"');
    expect(log).toContain(
      'jobs.departments.SAHP (police) is left out: job "police" has no grade 9 (for Trooper)',
    );
    const doctor = await rig.console('roster doctor', /✗ SAHP/);
    expect(doctor).toContain('jobs: framework qbx (qbx_core)');
    expect(doctor).toMatch(/✓ LSPD → police: Chief→4, Assistant Chief→3 \(more junior\)/);
    expect(doctor).toMatch(/✗ BCSO → sheriff: left out/);
    const trooper = await rig.join('SAHP', 'Trooper');
    qbx().Login!(trooper.id, 'CID9');
    await settle(10);
    expect(heldAt(trooper.id, 'unemployed', 0)).toBe(true);
  });

  it('the framework starting before the roster, and restarting, is found and validated again', async () => {
    rig = await startJobsRig({ framework: QBX, frameworkFirst: true });
    const { id } = await loaded('LSPD', 'Sergeant');
    expect(heldAt(id, 'police', 2)).toBe(true);
    rig.h.server.stopResource('qbx_core');
    const doctor = await rig.console('roster doctor', /jobs: /);
    expect(doctor).toContain('no framework');
    await rig.h.server.startLuaResource(
      'qbx_core',
      `${import.meta.dirname}/../../../.build/dev/frameworks/qbx_core`,
    );
    await rig.console('roster doctor', /jobs: framework qbx \(qbx_core\) \(\d+ jobs/);
    qbx().Login!(id, 'CID1');
    await eventually(() => heldAt(id, 'police', 2));
  });
});

describe('Qbox: the panel', () => {
  it("shows each online player's job and grade", async () => {
    const token = 'jobs-panel-token-0123456789';
    rig = await startJobsRig({ framework: QBX, convars: { roster_web_token: token } });
    const { id } = await loaded('LSPD', 'Sergeant');
    const reply = await fetch(`${rig.h.server.httpUrl}/roster/status.json`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const status = (await reply.json()) as { players: { online: { id: string; job: unknown }[] } };
    expect(status.players.online.find((p) => p.id === String(id))?.job).toEqual({ job: 'police', grade: 2 });
  });
});

describe('Qbox: a framework that fails', () => {
  it('an error for one player never breaks the gate nor another player’s sync', async () => {
    rig = await startJobsRig({ framework: QBX });
    const first = await rig.join('LSPD', 'Officer');
    qbx().StandInBreak!(first.id);
    qbx().Login!(first.id, 'CID1');
    await eventually(() => rig.h.logText().includes(`Job sync for Officer Test (${first.id})`));
    const second = await loaded('LSPD', 'Sergeant', 'CID2');
    expect(heldAt(second.id, 'police', 2)).toBe(true);
  });

  it('Qbox also answers as qb-core: with both started, auto takes Qbox', async () => {
    rig = await startJobsRig({ framework: QBX, frameworkFirst: true });
    await rig.h.server.startLuaResource(
      'qb-core',
      `${import.meta.dirname}/../../../.build/dev/frameworks/qb-core`,
    );
    await rig.console('roster doctor', /jobs: framework qbx \(qbx_core\) \(\d+ jobs/);
  });
});

describe('Qbox: multi-job', () => {
  it('with qbx:max_jobs_per_player above 1, every mapped department is a job and the primary one is primary', async () => {
    rig = await startJobsRig({ framework: QBX, convars: { 'qbx:max_jobs_per_player': '3' } });
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    const store = rig.h.mock.data;
    store.data.assignments.push({
      id: 'asg_extra',
      memberId: member.id,
      departmentId: 'dept_safr',
      rankId: store.rankByName('SAFR', 'Captain').id,
      isPrimary: false,
      callsign: null,
      createdAt: member.createdAt,
      updatedAt: member.createdAt,
    });
    await rig.ex('roster').refreshPlayer!(id);
    qbx().Login!(id, 'CID1');
    await eventually(() => {
      const jobs = data(id).jobs as Record<string, number>;
      return jobs.police === 2 && jobs.ambulance === 3;
    });
    expect(jobOf(id).name).toBe('police');
    store.data.assignments = store.data.assignments.filter((a) => a.id !== 'asg_extra');
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => (data(id).jobs as Record<string, number>).ambulance === undefined);
    expect(heldAt(id, 'police', 2)).toBe(true);
  });
});

describe('Qbox: jobs held beside the primary job count too', () => {
  const list = (id: number) => data(id).jobs as Record<string, number>;

  it("with one job allowed, another resource's AddPlayerToJob police beside unemployed is taken away within a second", async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id } = await rig.join('SAHP', 'Trooper'); // a department no job is mapped to
    qbx().Login!(id, 'CID5');
    await settle();
    expect(heldAt(id, 'unemployed', 0)).toBe(true);
    expect(qbx().AddPlayerToJob!('CID5', 'police', 4)).toBe(true);
    const from = rig.h.server.frames;
    expect(qbx().HasGroup!(id, 'police')).toBe(true);
    await eventually(() => qbx().HasGroup!(id, 'police') === false);
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    expect(heldAt(id, 'unemployed', 0)).toBe(true);
    expect(rig.h.logText()).toMatch(
      /was put into police grade 4 by something else; the roster decides: the roster gives them no police/,
    );
  });

  it('with one job allowed, a suspended member loses police kept in the list while the primary job is unemployed', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await loaded('LSPD', 'Officer', 'CID6');
    expect(qbx().SetPlayerPrimaryJob!('CID6', 'unemployed')).toBe(true);
    await settle(10);
    expect(heldAt(id, 'unemployed', 0)).toBe(true);
    expect(list(id).police).toBe(1); // at the roster's grade: nothing to set back
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => qbx().HasGroup!(id, 'police') === false);
    const saved = () =>
      qbx().StandInSaved!('CID6') as { jobs: Record<string, number> | unknown[] } | undefined;
    await eventually(() => (saved()?.jobs as Record<string, number> | undefined)?.police === undefined);
  });

  it('multi-job: a suspended member on a taxi shift loses police beside it and keeps the shift', async () => {
    rig = await startJobsRig({ framework: QBX, convars: { 'qbx:max_jobs_per_player': '3' } });
    const { id, member } = await loaded('LSPD', 'Officer', 'CID7');
    qbx().AddPlayerToJob!('CID7', 'taxi', 0);
    qbx().SetPlayerPrimaryJob!('CID7', 'taxi');
    await settle(10);
    expect(heldAt(id, 'taxi', 0)).toBe(true);
    expect(list(id).police).toBe(1);
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => list(id).police === undefined);
    expect(heldAt(id, 'taxi', 0)).toBe(true);
  });

  it("multi-job: police set to another grade beside a taxi shift goes back to the roster's grade, the shift kept", async () => {
    rig = await startJobsRig({ framework: QBX, convars: { 'qbx:max_jobs_per_player': '3' } });
    const { id } = await loaded('LSPD', 'Officer', 'CID8');
    qbx().AddPlayerToJob!('CID8', 'taxi', 0);
    qbx().SetPlayerPrimaryJob!('CID8', 'taxi');
    await settle(10);
    qbx().AddPlayerToJob!('CID8', 'police', 4);
    const from = rig.h.server.frames;
    expect(list(id).police).toBe(4);
    await eventually(() => list(id).police === 1);
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
    await settle(10);
    expect(heldAt(id, 'taxi', 0)).toBe(true);
    expect(list(id).police).toBe(1);
  });
});
