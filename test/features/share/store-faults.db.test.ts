import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OxmysqlExports } from '../../../src/features/share/fivem/oxmysql-calls';
import { SHARED_START, ShareStoreError } from '../../../src/features/share/share-store';
import { FakeClock } from '../../http/limiter/fake-clock';
import { member, ShareDatabase, type ShareServer, type TestStore, until } from './share-db-rig';

// A database that stalls, refuses, or refuses a write, met through the oxmysql stand-in: every
// call ends within the store's own bound (kept here on a fake clock) as a typed error, and the
// store works again once the database does.
let shared: ShareDatabase;
let main: ShareServer;

beforeEach(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
  await main.store().migrate();
});

afterEach(async () => {
  await main.database.link.restore();
  await shared.close();
});

/** Whether a promise settled yet, and how. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

/** The server's exports, counting the calls that reach oxmysql. */
function counted(): { exports: () => OxmysqlExports; sent: () => number } {
  let sent = 0;
  const ox = main.exports;
  const exports: OxmysqlExports = {
    query: (...args) => {
      sent++;
      ox.query(...args);
    },
    transaction: (...args) => {
      sent++;
      ox.transaction(...args);
    },
  };
  return { exports: () => exports, sent: () => sent };
}

describe('a stalled database', () => {
  it('fails every kind of call at the bound, not before, as a timeout', async () => {
    const clock = new FakeClock();
    const store = main.store({ clock });
    main.database.link.stall();
    const calls = [
      track(store.state()),
      track(store.publish('main', { members: [member('m1', 'Ann', 1)] })),
      track(store.membersSince(SHARED_START, 10)),
    ];
    await clock.advance(1_999);
    expect(calls.map((call) => call.settled)).toEqual([false, false, false]);
    await clock.advance(1);
    for (const call of calls) {
      expect(call.error).toBeInstanceOf(ShareStoreError);
      expect(call.error).toMatchObject({ failure: 'timeout' });
    }
  });

  it('after a few calls still unanswered, fails new ones at once without sending them; works again once it moves', async () => {
    const clock = new FakeClock();
    const { exports, sent } = counted();
    const store = main.store({ clock, exports });
    main.database.link.stall();
    const late = [track(store.state()), track(store.count(1)), track(store.budget())];
    await clock.advance(2_000);
    expect(late.every((call) => call.settled)).toBe(true);
    const before = sent();
    const next = track(store.state());
    await clock.advance(0);
    expect(next.error).toMatchObject({ failure: 'timeout' });
    expect(sent()).toBe(before);
    await main.database.link.restore();
    // The held statements answer (too late to count), and the store sends again.
    await until(async () => (await store.state().catch(() => null)) !== null);
    expect(sent()).toBeGreaterThan(before);
  });
});

describe('a call of several statements', () => {
  it('is bounded as a whole: a slow first statement leaves the rest only what remains', async () => {
    const clock = new FakeClock();
    const held: (() => void)[] = [];
    const ox = main.exports;
    // Answers reach the store only when the test lets them.
    const holding: OxmysqlExports = {
      query: (sql, values, answer, resource, promise) =>
        ox.query(sql, values, (result, error) => held.push(() => answer(result, error)), resource, promise),
      transaction: (statements, values, answer, resource, promise) =>
        ox.transaction(
          statements,
          values,
          (result, error) => held.push(() => answer(result, error)),
          resource,
          promise,
        ),
    };
    const store = main.store({ clock, exports: () => holding });
    const lease = track(store.lease('main', 30_000));
    await until(async () => held.length === 1);
    await clock.advance(1_500);
    held.shift()?.();
    await until(async () => held.length === 1);
    await clock.advance(499);
    expect(lease.settled).toBe(false);
    await clock.advance(1);
    expect(lease.error).toMatchObject({ failure: 'timeout' });
  });
});

describe('a database that refuses', () => {
  it('fails calls within the bound while it refuses, and works again once it accepts', async () => {
    const clock = new FakeClock();
    const store = main.store({ clock });
    expect(await store.lease('main', 30_000)).toBe(true);
    await main.database.link.refuse();
    const call = track(store.lease('main', 30_000));
    await clock.advance(2_000);
    expect(call.error).toBeInstanceOf(ShareStoreError);
    await main.database.link.restore();
    const fresh = main.store();
    await until(async () => (await fresh.lease('main', 30_000).catch(() => false)) === true);
  });
});

describe('oxmysql missing', () => {
  it('not started: every call fails at once as unavailable', async () => {
    const store = main.store({ exports: () => undefined });
    await expect(store.state()).rejects.toMatchObject({ failure: 'unavailable' });
    main.server.stopResource('oxmysql');
    await expect(main.store().lease('main', 1_000)).rejects.toMatchObject({ failure: 'unavailable' });
  });
});

describe('a write the database refuses', () => {
  it('fails, and leaves nothing of it: no members, no version, no state moved', async () => {
    const store = main.store();
    expect(await store.lease('main', 30_000)).toBe(true);
    expect(
      await store.publish('main', { members: [member('m1', 'Ann', 1)], auditPosition: { at: 'one' } }),
    ).toBe(1);
    await shared.query('RENAME TABLE roster_share_writes TO roster_share_writes_away');
    await expect(
      store.publish('main', {
        members: [member('m2', 'Bo', 2)],
        auditPosition: { at: 'two' },
        complete: true,
      }),
    ).rejects.toMatchObject({ failure: 'failed' });
    await shared.query('RENAME TABLE roster_share_writes_away TO roster_share_writes');
    expect(await store.state()).toMatchObject({ version: 1, auditPosition: { at: 'one' }, complete: false });
    expect((await store.membersSince(SHARED_START, 10)).rows.map((row) => row.memberId)).toEqual(['m1']);
    expect(main.oxLog()).toContain('was unable to complete a transaction!');
  });

  it('a statement that fails is an error carrying the database’s reason', async () => {
    const store: TestStore = main.store();
    await shared.query('DROP TABLE roster_share_state');
    await expect(store.state()).rejects.toThrow(
      /The database answered: .*roster_share_state.* doesn't exist/,
    );
  });
});
