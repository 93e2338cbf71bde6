import { afterEach, expect, it, vi } from 'vitest';
import { LICENSE, standIn } from './stand-in-rig';

// The ESX stand-in behaves as es_extended's source does.
type Rig = Awaited<ReturnType<typeof standIn>>;
let rig: Rig;
afterEach(() => rig.server.stop());

type Job = { name: string; grade: number; onDuty: boolean };
const job = (id: number) => rig.ex().RunStaticPlayerMethod!(id, 'getJob') as Job;

it('GetJobs answers with a Promise while the jobs are read from the database, a value after', async () => {
  rig = await standIn('es_extended', { lua: true });
  const esx = rig.ex().getSharedObject!() as { GetJobs(): unknown };
  const early = esx.GetJobs();
  expect(early).toBeInstanceOf(rig.caller.runtime.realm.global.Promise as PromiseConstructor);
  expect(Object.keys((await early) as object)).toContain('police');
  expect(esx.GetJobs()).not.toBeInstanceOf(rig.caller.runtime.realm.global.Promise as PromiseConstructor);
});

it('setJob returns nothing either way, ignores an invalid job, resets duty without onDuty, fires esx:setJob even unchanged', async () => {
  rig = await standIn('es_extended', { lua: true });
  await (rig.ex().getSharedObject!() as { GetJobs(): unknown }).GetJobs();
  const id = await rig.join(LICENSE);
  await rig.ex().Load!(id, 1);
  const log = vi.fn();
  rig.listen('esx:setJob');
  expect(rig.ex().RunStaticPlayerMethod!(id, 'setJob', 'police', 9)).toBeUndefined();
  expect(rig.server.log.of('es_extended').join('\n')).toContain('Ignoring invalid');
  expect(rig.ex().RunStaticPlayerMethod!(id, 'setJob', 'police', 2, false)).toBeUndefined();
  expect(job(id)).toMatchObject({ name: 'police', grade: 2, onDuty: false });
  rig.ex().RunStaticPlayerMethod!(id, 'setJob', 'police', 2);
  expect(job(id).onDuty).toBe(true);
  expect(rig.events).toHaveLength(2);
  expect(rig.ex().RunStaticPlayerMethod!(String(id), 'getJob')).toBeUndefined(); // by number only
  log.mockReset();
});

it('save <id> writes only once the client has spawned', async () => {
  rig = await standIn('es_extended', { lua: true });
  await (rig.ex().getSharedObject!() as { GetJobs(): unknown }).GetJobs();
  const id = await rig.join(LICENSE);
  const identifier = (await rig.ex().Load!(id, 1)) as string;
  rig.ex().RunStaticPlayerMethod!(id, 'setJob', 'police', 1);
  rig.server.executeCommand(`save ${id}`);
  expect(rig.ex().StandInSaved!(identifier)).toBeUndefined();
  rig.server.emitNet('esx:onPlayerSpawn', id);
  rig.server.executeCommand(`save ${id}`);
  expect(rig.ex().StandInSaved!(identifier)).toEqual({ job: 'police', grade: 1 });
});
