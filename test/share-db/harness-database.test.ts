import { afterAll, describe, expect, it } from 'vitest';
import { FxServer } from '../../dev/emulator';
import { type Harness, startHarness } from '../integration/harness';
import { attachDatabase } from './server-database';

// The integration harness's `database` option: the roster resource's server with the oxmysql
// resource on a database of its own, and a second server on the same database.
let h: Harness | undefined;

afterAll(() => h?.close());

describe('startHarness({ database: true })', () => {
  it('starts oxmysql on a fresh database before roster, reachable from any resource', async () => {
    h = await startHarness({ database: true });
    const { database } = h;
    expect(database).toBeDefined();
    expect(h.server.resourceState('oxmysql')).toBe('started');
    const ox = h.caller.exports.oxmysql as Record<string, (...args: unknown[]) => Promise<unknown>>;
    expect(await ox.scalar_async?.('SELECT DATABASE()')).toBe(database?.db.name);
    await database?.db.query('CREATE TABLE shared (n INT)');

    const second = new FxServer();
    await second.start();
    const other = await attachDatabase(second, { ...(database ? { db: database.db } : {}) });
    try {
      const caller = second.createScriptResource('caller');
      const otherOx = caller.exports.oxmysql as Record<string, (...args: unknown[]) => Promise<unknown>>;
      await otherOx.insert_async?.('INSERT INTO shared VALUES (?)', [7]);
      expect(await ox.scalar_async?.('SELECT n FROM shared')).toBe(7);
    } finally {
      second.stop();
      await other.close();
    }
  });
});
