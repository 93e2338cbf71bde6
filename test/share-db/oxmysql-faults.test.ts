import { afterEach, describe, expect, it } from 'vitest';
import { oxmysqlConnected } from '../../dev/stand-ins/oxmysql';
import { eventually } from '../integration/harness';
import { frames, type OxmysqlRig, startOxmysqlRig, withCallback, withPromiseFlag } from './oxmysql-rig';

// A database that refuses or stalls, as the oxmysql stand-in meets it: through the rig's link (a
// stall or a refusal of this file's own), or a lock held on a table.
let rig: OxmysqlRig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Whether a promise settled yet, read after some frames. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('a database that refuses at start', () => {
  it('is not ready, says why, holds every query until it connects, then answers them', async () => {
    rig = await startOxmysqlRig({ connected: false, retryMs: 300, beforeStart: (_, link) => link.refuse() });
    const current = rig;
    await eventually(() =>
      current.oxLog().includes('Unable to establish a connection to the database (ECONNREFUSED)!'),
    );
    expect(current.ox.isReady()).toBe(false);
    const waiting = track(current.ox.scalar_async('SELECT 41 + ?', [1]));
    const ready = track(current.ox.awaitConnection());
    await frames(current, 20);
    expect(waiting.settled).toBe(false);
    expect(ready.settled).toBe(false);
    await current.link.restore();
    await oxmysqlConnected(current.server);
    await eventually(() => waiting.settled);
    expect(waiting.value).toBe(42);
    await eventually(() => ready.settled);
    expect(ready.value).toBe(true);
    expect(current.ox.isReady()).toBe(true);
  });

  it('with a wrong password: never ready, the error logged, the password masked', async () => {
    rig = await startOxmysqlRig({
      connected: false,
      retryMs: 300,
      connectionString: (db, link) =>
        db.connectionString({ host: link.host, port: link.port, password: 'wrongsecret' }),
    });
    const current = rig;
    await eventually(() => current.oxLog().includes('(ER_ACCESS_DENIED_ERROR)!'));
    expect(current.oxLog()).toContain(
      `Error 1045: Access denied for user '${current.db.credentials.user}'@'127.0.0.1'`,
    );
    expect(current.oxLog()).toContain("password: '******'");
    expect(current.oxLog()).not.toContain('wrongsecret');
    expect(current.ox.isReady()).toBe(false);
  });
});

describe('a database that stalls', () => {
  it('holds a statement while nothing moves, answers it once the link moves again, and logs it as slow', async () => {
    rig = await startOxmysqlRig();
    const current = rig;
    await current.db.query('CREATE TABLE beat (n INT)');
    current.link.stall();
    const waiting = track(current.ox.insert_async('INSERT INTO beat VALUES (?)', [5]));
    const callback = withCallback(current, 'scalar', 'SELECT COUNT(*) FROM beat');
    await frames(current, 20);
    expect(waiting.settled).toBe(false);
    expect(callback.called).toBe(false);
    await current.link.restore();
    await eventually(() => waiting.settled && callback.called);
    expect(waiting.error).toBeUndefined();
    expect(await current.db.query('SELECT n FROM beat')).toEqual([{ n: 5 }]);
    expect(current.oxLog()).toMatch(
      /caller took \d+\.\d{4}ms to execute a query!\nINSERT INTO beat VALUES \(\?\) \[5\]/,
    );
  });

  it('holds a statement on a locked table while others are answered', async () => {
    rig = await startOxmysqlRig();
    const current = rig;
    await current.db.query('CREATE TABLE locked (n INT)');
    await current.db.query('CREATE TABLE free (n INT)');
    const lock = await current.db.lockTables(['locked']);
    const blocked = track(current.ox.query_async('SELECT * FROM locked'));
    expect(await current.ox.query_async('SELECT * FROM free')).toEqual([]);
    await frames(current, 10);
    expect(blocked.settled).toBe(false);
    await lock.release();
    await eventually(() => blocked.settled);
    expect(blocked.value).toEqual([]);
  });
});

describe('a database that goes away after start', () => {
  it('fails the statement in flight, then leaves new callers without an answer and prints the lost rejection', async () => {
    rig = await startOxmysqlRig();
    const current = rig;
    // In flight: sent, held by a stall, cut when the database goes away.
    current.link.stall();
    const inFlight = track(current.ox.scalar_async('SELECT 1'));
    await frames(current, 2);
    await current.link.refuse();
    await eventually(() => inFlight.settled);
    expect(inFlight.error).toBe(
      'caller was unable to execute a query!\nQuery: SELECT 1\n[]\nConnection lost: The server closed the connection.',
    );
    // The pool has dropped its connections by now: every query needs a new one, which is refused.
    await frames(current, 2);
    const lost = track(current.ox.query_async('SELECT 2'));
    const callback = withPromiseFlag(current, 'query', 'SELECT 3', []);
    await eventually(
      () =>
        current.oxLog().split('UnhandledPromiseRejectionWarning: Error: connect ECONNREFUSED').length === 3,
    );
    await frames(current, 20);
    expect(lost.settled).toBe(false);
    expect(callback.called).toBe(false);
    await current.link.restore();
    expect(await current.ox.scalar_async('SELECT 4')).toBe(4);
    await frames(current, 2);
    expect(lost.settled).toBe(false);
  });
});
