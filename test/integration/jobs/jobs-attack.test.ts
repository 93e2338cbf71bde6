import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// Bad days for job sync, against the Qbox stand-in, from the bundle.
type Job = { name: string; grade: { level: number }; onduty: boolean };

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const QBX = { resource: 'qbx_core', lua: true };
const qbx = () => rig.ex('qbx_core');
const jobOf = (id: number) => (qbx().GetPlayer!(id) as { PlayerData: { job: Job } }).PlayerData.job;
const calls = () => qbx().StandInCalls!() as Record<string, number>;
const heldAt = (id: number, job: string, level: number) =>
  jobOf(id).name === job && jobOf(id).grade.level === level;
const settle = async (frames: number) => {
  const until = rig.h.server.frames + frames;
  await eventually(() => rig.h.server.frames >= until);
};

describe('job sync against another resource that keeps setting the job', () => {
  it('sets back a bounded number of times, says so once, and takes the next roster change again', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await rig.join('LSPD', 'Officer');
    qbx().Login!(id, 'CID1');
    await eventually(() => heldAt(id, 'police', 1));
    // A job script that insists on police grade 4 whenever the job changes (its own event included).
    let fighting = true;
    rig.h.caller.on('QBCore:Server:OnJobUpdate', (src: unknown, raw: unknown) => {
      const job = raw as Job;
      if (fighting && src === id && job.name === 'police' && job.grade.level !== 4)
        qbx().SetJob!(id, 'police', 4);
    });
    const before = calls().SetJob ?? 0;
    qbx().SetJob!(id, 'police', 4);
    await settle(30);
    const during = (calls().SetJob ?? 0) - before;
    await settle(30);
    // The fight ends: the roster set back a few times, then stopped; nothing more is written.
    expect((calls().SetJob ?? 0) - before).toBe(during);
    expect(during).toBeLessThanOrEqual(10);
    const lines = rig.h.server.log.lines.filter((l) => l.includes('keeps being put into'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Officer Test \(\d+\) keeps being put into police grade 4 by something else/);
    // The next roster change is applied again.
    fighting = false;
    await rig.promote(id, member, 'LSPD', 'Sergeant');
    await eventually(() => heldAt(id, 'police', 2));
  });
});

describe('job sync across restarts', () => {
  it('the roster restarting while characters are loaded applies the roster job to them again, writing only what differs', async () => {
    rig = await startJobsRig({ framework: QBX });
    const officer = await rig.join('LSPD', 'Officer');
    qbx().Login!(officer.id, 'CID1');
    await eventually(() => heldAt(officer.id, 'police', 1));
    const steady = await rig.join('LSPD', 'Sergeant');
    qbx().Login!(steady.id, 'CID2');
    await eventually(() => heldAt(steady.id, 'police', 2));
    await settle(4);
    // Promoted on the roster while the roster resource is down: no refresh reaches the game.
    rig.h.mock.data.setMemberRank(officer.member.id, rig.h.mock.data.rankByName('LSPD', 'Lieutenant').id);
    const before = calls().SetJob ?? 0;
    rig.h.server.restartResource('roster');
    await eventually(() => heldAt(officer.id, 'police', 3));
    await settle(20);
    expect((calls().SetJob ?? 0) - before).toBe(1);
    expect(heldAt(steady.id, 'police', 2)).toBe(true);
  });
});

describe('job sync with a job named in another case than the framework spells it', () => {
  it('"Police" in jobs.departments is the framework\'s police: managed, set back and unassigned', async () => {
    rig = await startJobsRig({
      framework: QBX,
      departments: { LSPD: { job: 'Police', grades: { Officer: 1, Sergeant: 2 } } },
    });
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    qbx().Login!(id, 'CID1');
    await eventually(() => heldAt(id, 'police', 2));
    qbx().SetJob!(id, 'police', 4);
    await eventually(() => heldAt(id, 'police', 2));
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    await eventually(() => heldAt(id, 'unemployed', 0));
  });
});

describe('Qbox multi-job: a taxi shift as primary job', () => {
  it('a member who no longer qualifies loses the managed job and keeps the shift, with no warning', async () => {
    rig = await startJobsRig({ framework: QBX, convars: { 'qbx:max_jobs_per_player': '3' } });
    const { id, member } = await rig.join('LSPD', 'Sergeant');
    qbx().Login!(id, 'CID1');
    await eventually(() => heldAt(id, 'police', 2));
    qbx().AddPlayerToJob!('CID1', 'taxi', 0);
    qbx().SetPlayerPrimaryJob!('CID1', 'taxi');
    await settle(10);
    expect(heldAt(id, 'taxi', 0)).toBe(true); // left alone
    rig.h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    await rig.ex('roster').refreshPlayer!(id);
    const jobs = () =>
      (qbx().GetPlayer!(id) as { PlayerData: { jobs: Record<string, number> } }).PlayerData.jobs;
    await eventually(() => jobs().police === undefined);
    await settle(10);
    expect(heldAt(id, 'taxi', 0)).toBe(true);
    expect(rig.h.logText()).not.toMatch(/did not take/);
  });
});

describe('a rank created on the roster after its ranks were read', () => {
  it('a member promoted into it keeps at least the grade below it, not the job’s lowest', async () => {
    rig = await startJobsRig({ framework: QBX });
    const { id, member } = await rig.join('LSPD', 'Officer');
    qbx().Login!(id, 'CID1');
    await eventually(() => heldAt(id, 'police', 1));
    // "Corporal" goes in below Sergeant: the ranks under it move down one position.
    const store = rig.h.mock.data;
    const sergeant = store.rankByName('LSPD', 'Sergeant');
    for (const r of store.data.ranks)
      if (r.departmentId === sergeant.departmentId && r.position > sergeant.position) r.position++;
    store.data.ranks.push({
      id: 'rank_lspd_corporal',
      departmentId: sergeant.departmentId,
      name: 'Corporal',
      position: sergeant.position + 1,
      createdAt: sergeant.createdAt,
    });
    const before = calls().SetJob ?? 0;
    store.setMemberRank(member.id, 'rank_lspd_corporal');
    await rig.ex('roster').refreshPlayer!(id);
    await settle(20);
    expect(heldAt(id, 'police', 1)).toBe(true);
    expect(calls().SetJob ?? 0).toBe(before);
  });
});

describe('the framework restarting', () => {
  it('a mapping it still lacks is named again, once per start', async () => {
    rig = await startJobsRig({
      framework: QBX,
      departments: { LSPD: { job: 'police' }, BCSO: { job: 'sheriff' } },
    });
    const named = () =>
      rig.h.server.log.lines.filter((l) => l.includes('jobs.departments.BCSO (sheriff)')).length;
    await eventually(() => named() === 1);
    rig.h.server.stopResource('qbx_core');
    await rig.h.server.startLuaResource(
      'qbx_core',
      `${import.meta.dirname}/../../../.build/dev/frameworks/qbx_core`,
    );
    await eventually(() => named() === 2);
    // A job edited at runtime (qbx_core's CreateJob/UpsertJobData) validates again and says nothing new.
    rig.h.caller.emit('qbx_core:server:onJobUpdate', 'taxi', {});
    await settle(10);
    expect(named()).toBe(2);
  });
});

describe('a mapping left out', () => {
  it('its job is not driven at all: a character holding it keeps it, nothing is written', async () => {
    // police has no grade 9 (a grade deleted from the framework's jobs, or a typo): LSPD is left out.
    rig = await startJobsRig({
      framework: QBX,
      departments: { LSPD: { job: 'police', grades: { Chief: 9 } } },
    });
    const { id } = await rig.join('LSPD', 'Sergeant');
    await eventually(() => rig.h.logText().includes('jobs.departments.LSPD (police) is left out'));
    qbx().Login!(id, 'CID1', { job: { name: 'police', grade: 2 } });
    await settle(20);
    expect(heldAt(id, 'police', 2)).toBe(true);
    qbx().SetJob!(id, 'police', 3); // an admin: the roster does not decide this job now
    await settle(20);
    expect(heldAt(id, 'police', 3)).toBe(true);
    expect(calls().SetJob).toBe(1);
    expect(rig.ex('roster').getJob!(id)).toBeNull();
  });
});
