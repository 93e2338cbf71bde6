import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn, type Harness, startHarness } from '../harness';
import { type JobsRig, startJobsRig } from './jobs-harness';

// The rules of job sync that every framework shares, against the QBCore, ESX,
// ND_Core and ox_core stand-ins (Qbox's are in jobs-qbx.test.ts), from the built bundle.
type Job = { job: string; grade: number } | null;
type Fn = (...args: unknown[]) => unknown;

interface Driver {
  framework: { resource: string; lua: boolean };
  /** LSPD mapped with the framework's own grade numbers: Officer and Sergeant. */
  officer: number;
  sergeant: number;
  departments: Record<string, unknown>;
  /** The export counting the framework's set-job calls. */
  setJobCall: string;
  login(ex: Record<string, Fn>, id: number, character: number): Promise<void>;
  logout(ex: Record<string, Fn>, id: number): Promise<void>;
  job(ex: Record<string, Fn>, id: number): Promise<Job>;
  /** Something else (an admin, a job script) moves the character to an unmanaged job. */
  toTaxi(ex: Record<string, Fn>, id: number): Promise<void>;
}

const lspd = (base: number) => ({
  LSPD: {
    job: 'police',
    grades: { Cadet: base, Officer: base + 1, Sergeant: base + 2, Lieutenant: base + 3, Chief: base + 4 },
  },
});
type QbPlayer = {
  PlayerData: { job: { name: string; grade: { level: number } } };
  Functions: Record<string, Fn>;
};
const qbPlayer = async (ex: Record<string, Fn>, id: number) => {
  const core = (await ex.GetCoreObject!()) as { Functions: { GetPlayer(src: number): QbPlayer | undefined } };
  return core.Functions.GetPlayer(id);
};
type NdCharacter = { job?: string; groups: Record<string, { rank: number }>; setJob: Fn };

const DRIVERS: Record<string, Driver> = {
  QBCore: {
    framework: { resource: 'qb-core', lua: true },
    officer: 1,
    sergeant: 2,
    departments: lspd(0),
    setJobCall: 'SetJob',
    login: async (ex, id, c) => void ex.Login!(id, `QB${c}`),
    logout: async (ex, id) => void ex.Logout!(id),
    job: async (ex, id) => {
      const p = await qbPlayer(ex, id);
      return p ? { job: p.PlayerData.job.name, grade: p.PlayerData.job.grade.level } : null;
    },
    toTaxi: async (ex, id) => void (await qbPlayer(ex, id))!.Functions.SetJob!('taxi', 0),
  },
  ESX: {
    framework: { resource: 'es_extended', lua: true },
    officer: 1,
    sergeant: 2,
    departments: lspd(0),
    setJobCall: 'setJob',
    login: async (ex, id, c) => void (await ex.Load!(id, c)),
    logout: async (ex, id) => void ex.Logout!(id),
    job: async (ex, id) => {
      const job = ex.RunStaticPlayerMethod!(id, 'getJob') as { name: string; grade: number } | undefined;
      return job ? { job: job.name, grade: job.grade } : null;
    },
    toTaxi: async (ex, id) => void ex.RunStaticPlayerMethod!(id, 'setJob', 'taxi', 0),
  },
  ND_Core: {
    framework: { resource: 'ND_Core', lua: true },
    officer: 2,
    sergeant: 3,
    departments: { LSPD: { job: 'lspd', grades: lspd(1).LSPD.grades } },
    setJobCall: 'setJob',
    login: async (ex, id, c) => void (await ex.setActiveCharacter!(id, c)),
    logout: async (ex, id) => void (await ex.unloadCharacter!(id)),
    job: async (ex, id) => {
      const c = ex.getPlayer!(id) as NdCharacter | undefined;
      return c?.job ? { job: c.job === 'lspd' ? 'police' : c.job, grade: c.groups[c.job]!.rank } : null;
    },
    toTaxi: async (ex, id) => void (ex.getPlayer!(id) as NdCharacter).setJob('taxi', 1),
  },
  ox_core: {
    framework: { resource: 'ox_core', lua: false },
    officer: 2,
    sergeant: 3,
    departments: lspd(1),
    setJobCall: 'setGroup',
    login: async (ex, id, c) => void ex.Login!(id, c),
    logout: async (ex, id) => void ex.Logout!(id),
    job: async (ex, id) => {
      const groups = (await ex.CallPlayer!(id, 'getGroups')) as Record<string, number> | false;
      if (!groups) return null;
      const [job, grade] = Object.entries(groups)[0] ?? [];
      return job ? { job, grade: grade! } : { job: 'none', grade: 0 };
    },
    // One group per type: the police group goes first, then the taxi one.
    toTaxi: async (ex, id) => {
      await ex.CallPlayer!(id, 'setGroup', 'police', 0);
      await ex.CallPlayer!(id, 'setGroup', 'taxi', 1);
    },
  },
};

let rig: JobsRig;
afterEach(async () => {
  await rig?.close();
});

const waitJob = async (d: Driver, id: number, job: string, grade: number) => {
  const ex = rig.ex(d.framework.resource);
  for (let i = 0; i < 500; i++) {
    const held = await d.job(ex, id);
    if (held?.job === job && held.grade === grade) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${job} ${grade} not reached; holds ${JSON.stringify(await d.job(ex, id))}`);
};
const settle = async (frames = 10) => {
  const until = rig.h.server.frames + frames;
  await eventually(() => rig.h.server.frames >= until);
};

describe.each(Object.entries(DRIVERS))('%s', (_name, d) => {
  const start = () =>
    startJobsRig({
      framework: d.framework,
      departments: d.departments,
      aces: [['resource.roster', 'command.save', 'allow']],
    });
  const calls = () =>
    (rig.ex(d.framework.resource).StandInCalls!() as Record<string, number>)[d.setJobCall] ?? 0;

  it('a promotion reaches the loaded character within a second', async () => {
    rig = await start();
    const ex = rig.ex(d.framework.resource);
    const { id, member } = await rig.join('LSPD', 'Officer');
    await d.login(ex, id, 1);
    await waitJob(d, id, 'police', d.officer);
    await rig.promote(id, member, 'LSPD', 'Sergeant');
    const from = rig.h.server.frames;
    await waitJob(d, id, 'police', d.sergeant);
    expect(rig.h.server.frames - from).toBeLessThanOrEqual(framesIn(1));
  });

  it('an offline character is never written; the next character of the license gets the roster job', async () => {
    rig = await start();
    const ex = rig.ex(d.framework.resource);
    const { id, member } = await rig.join('LSPD', 'Officer');
    await d.login(ex, id, 1);
    await waitJob(d, id, 'police', d.officer);
    await d.logout(ex, id);
    await settle();
    const before = calls();
    await rig.promote(id, member, 'LSPD', 'Sergeant');
    await settle();
    expect(calls()).toBe(before);
    await d.login(ex, id, 2);
    await waitJob(d, id, 'police', d.sergeant);
  });

  it('a character moved to an unmanaged job is left alone until the next roster change', async () => {
    rig = await start();
    const ex = rig.ex(d.framework.resource);
    const { id, member } = await rig.join('LSPD', 'Officer');
    await d.login(ex, id, 1);
    await waitJob(d, id, 'police', d.officer);
    await d.toTaxi(ex, id);
    await settle();
    expect((await d.job(ex, id))?.job).toBe('taxi');
    await rig.promote(id, member, 'LSPD', 'Sergeant');
    await waitJob(d, id, 'police', d.sergeant);
  });
});

describe('jobs.unassigned', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('naming a managed job fails closed at start, the problem named', async () => {
    h = await startHarness({
      config: {
        jobs: {
          enabled: true,
          departments: { LSPD: { job: 'police' }, SAFR: { job: 'ambulance' } },
          unassigned: { job: 'Police', grade: 0 },
        },
      },
    });
    const member = h.mock.data.members[0]!;
    const decision = await h.server.connectPlayer({ name: 'M', identifiers: [member.gameLicense] }).decision;
    expect(!decision.admitted && decision.reason).toMatch(/roster check is not set up/);
    expect(h.logText()).toMatch(
      /jobs\.unassigned names "Police", the job jobs\.departments\.LSPD manages: every character the roster gives no job would get it/,
    );
    expect(h.caller.exports.roster!.getJob!(1)).toBeNull();
  });
});
