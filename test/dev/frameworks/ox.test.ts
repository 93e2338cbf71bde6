import { afterEach, expect, it } from 'vitest';
import { LICENSE, standIn } from './stand-in-rig';

// The ox_core stand-in behaves as ox_core's source does (player/class.ts).
// It is TypeScript, loaded from the build: run `npm run build` first.
type Rig = Awaited<ReturnType<typeof standIn>>;
let rig: Rig;
afterEach(() => rig.server.stop());

const call = (id: number, method: string, ...args: unknown[]) => rig.ex().CallPlayer!(id, method, ...args);

it('setGroup: 1-based grades, grade 0 removes, unknown warns with undefined, one group per type, === compare', async () => {
  rig = await standIn('ox_core', { lua: false });
  const id = await rig.join(LICENSE);
  await rig.frames(8); // the groups come from the database
  expect(rig.ex().GetPlayer!(id)).toMatchObject({ charId: null });
  rig.ex().Login!(id, 3);
  rig.listen('ox:setGroup');
  // undefined crosses msgpack as nil: a JS caller gets null.
  expect(await call(id, 'setGroup', 'police', 6)).toBeNull();
  expect(await call(id, 'setGroup', 'police', 2)).toBe(true);
  expect(await call(id, 'setGroup', 'police', 2)).toBeNull();
  expect(await call(id, 'setGroup', 'police', '2')).toBe(true); // a string is not === 2
  expect(await call(id, 'setGroup', 'ems', 1)).toBeNull(); // a second group of type 'job'
  expect(await call(id, 'setGroup', 'police', 0)).toBe(true);
  expect(call(id, 'getGroups')).toEqual({});
  expect(await call(id, 'setGroup', 'police', 0)).toBeNull(); // removing a group not held: nothing
  expect(rig.events.map(([, args]) => args.slice(1))).toEqual([
    ['police', 2],
    ['police', '2'],
    ['police', null],
  ]);
});

it('the group list is read into GlobalState a moment after start, grades as a label array', async () => {
  rig = await standIn('ox_core', { lua: false });
  const state = rig.caller.runtime.realm.global.GlobalState as Record<string, unknown>;
  expect(state.groups ?? null).toBeNull();
  await rig.frames(8);
  expect(state.groups).toEqual(['police', 'ems', 'taxi', 'mechanic']);
  expect((state['group.police'] as { grades: string[] }).grades[0]).toBe('Cadet');
});
