import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_START } from '../../../src/features/share/share-store';
import { member, ShareDatabase, type ShareServer, type TestStore } from './share-db-rig';

let shared: ShareDatabase;
let main: ShareServer;
let store: TestStore;

beforeAll(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
  store = main.store();
  await store.migrate();
});

afterAll(() => shared?.close());

describe('a first write and read', () => {
  it('writes members under a version and reads them back', async () => {
    expect(await store.lease('main', 30_000)).toBe(true);
    const version = await store.publish('main', {
      members: [member('m1', 'Ann', 100), member('m2', 'Bo', 100)],
      auditPosition: { at: 'x' },
      complete: true,
    });
    expect(version).toBe(1);
    const page = await store.membersSince(SHARED_START, 10);
    expect(page.rows.map((r) => [r.memberId, r.record?.name, r.version])).toEqual([
      ['m1', 'Ann', 1],
      ['m2', 'Bo', 1],
    ]);
    expect(await store.state()).toMatchObject({
      reader: 'main',
      version: 1,
      complete: true,
      auditPosition: { at: 'x' },
    });
    expect(await store.count(2)).toEqual({ minute: 2, day: 2 });
    expect(await store.count(3)).toEqual({ minute: 5, day: 5 });
    expect(await store.budget()).toEqual({ minute: 5, day: 5 });
  });
});
