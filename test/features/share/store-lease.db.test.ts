import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_START } from '../../../src/features/share/share-store';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { member, ShareDatabase, type ShareServer, type TestStore, until } from './share-db-rig';

// The lease between two servers, each with its own oxmysql pool on one database, judged on the
// database's clock.
let shared: ShareDatabase;
let main: ShareServer;
let events: ShareServer;
let keys = 0;

beforeAll(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
  events = await shared.server();
});

afterAll(() => shared?.close());

/** A key of its own per test, seen from both servers. */
async function stores(): Promise<[TestStore, TestStore]> {
  const keyHash = shareKeyHash(`rk_lease${++keys}_secret`);
  const pair: [TestStore, TestStore] = [main.store({ keyHash }), events.store({ keyHash })];
  await pair[0].migrate();
  return pair;
}

describe('the lease', () => {
  it('asked by two servers at once, goes to exactly one', async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = await stores();
      const won = await Promise.all([a.lease('main', 30_000), b.lease('events', 30_000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const state = await a.state();
      expect(state?.reader).toBe(won[0] ? 'main' : 'events');
    }
  });

  it('is renewed by its holder, and not taken by another while it runs', async () => {
    const [a, b] = await stores();
    expect(await a.lease('main', 30_000)).toBe(true);
    const first = (await a.state())!;
    expect(first.leaseUntil - first.now).toBeGreaterThan(29_000);
    expect(await b.lease('events', 30_000)).toBe(false);
    expect(await a.lease('main', 30_000)).toBe(true);
    const renewed = (await a.state())!;
    expect(renewed.reader).toBe('main');
    expect(renewed.leaseUntil).toBeGreaterThanOrEqual(first.leaseUntil);
    expect(await b.lease('events', 30_000)).toBe(false);
  });

  it('is taken by another only once it ran out on the database’s clock', async () => {
    const [a, b] = await stores();
    expect(await a.lease('main', 400)).toBe(true);
    const held = (await a.state())!;
    await until(() => b.lease('events', 30_000));
    const taken = (await b.state())!;
    expect(taken.reader).toBe('events');
    // Taken at leaseUntil - 30 s: not before main's ran out.
    expect(taken.leaseUntil - 30_000).toBeGreaterThanOrEqual(held.leaseUntil);
    expect(await a.lease('main', 30_000)).toBe(false);
  });

  it('released by its holder, is free at once; a release by another server changes nothing', async () => {
    const [a, b] = await stores();
    expect(await a.lease('main', 30_000)).toBe(true);
    await b.release('events');
    expect(await b.lease('events', 30_000)).toBe(false);
    await a.release('main');
    expect((await a.state())?.reader).toBeNull();
    expect(await b.lease('events', 30_000)).toBe(true);
  });
});

describe('publish', () => {
  it('is refused, and writes nothing, once the lease ran out, and once another server took it', async () => {
    const [a, b] = await stores();
    expect(await a.lease('main', 300)).toBe(true);
    expect(await a.publish('main', { members: [member('m1', 'Ann', 1)], auditPosition: { at: 'one' } })).toBe(
      1,
    );
    // Ran out, nobody took it: still refused.
    await until(async () => {
      const state = (await a.state())!;
      return state.now > state.leaseUntil;
    });
    expect(
      await a.publish('main', { members: [member('m2', 'Bo', 2)], auditPosition: { at: 'two' } }),
    ).toBeNull();
    expect(await b.lease('events', 30_000)).toBe(true);
    expect(
      await a.publish('main', {
        members: [member('m3', 'Cy', 3)],
        auditPosition: { at: 'three' },
        complete: true,
      }),
    ).toBeNull();
    const state = (await b.state())!;
    expect(state).toMatchObject({
      version: 1,
      auditPosition: { at: 'one' },
      complete: false,
      reader: 'events',
    });
    expect((await b.membersSince(SHARED_START, 10)).rows.map((row) => row.memberId)).toEqual(['m1']);
    expect(await b.publish('events', { members: [member('m2', 'Bo', 2)] })).toBe(2);
  });

  it('by a server that never held the lease, is refused', async () => {
    const [a] = await stores();
    expect(await a.publish('main', { members: [member('m1', 'Ann', 1)] })).toBeNull();
    expect((await a.state())?.version).toBe(0);
  });
});
