import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SchemaStep, SHARE_SCHEMA } from '../../../src/features/share/fivem/store-schema';
import { SHARED_START } from '../../../src/features/share/share-store';
import { KEY_HASH, member, ShareDatabase, type ShareServer } from './share-db-rig';

// The tables as the store creates and upgrades them: on a database with nothing yet, again on
// the same one, from two servers at once, and over tables of an older step.
let shared: ShareDatabase;
let main: ShareServer;

beforeEach(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
});

afterEach(() => shared.close());

const tables = async () =>
  (
    await shared.query(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name',
    )
  ).map((row) => row.name);
const schemaVersion = async () => (await shared.query('SELECT name, version FROM roster_share_schema'))[0];

/** This release's step. */
const LATEST = SHARE_SCHEMA[SHARE_SCHEMA.length - 1]?.version ?? 0;
/** A later release's step: a column added (which fails if it runs a second time). */
const LATER: SchemaStep = {
  version: LATEST + 1,
  statements: ['ALTER TABLE roster_share_members ADD COLUMN note VARCHAR(20) NULL'],
};

describe('migrate', () => {
  it('creates the tables, the version row and this key’s state row on an empty database', async () => {
    await main.store().migrate();
    expect(await tables()).toEqual([
      'roster_share_budget',
      'roster_share_duty',
      'roster_share_duty_state',
      'roster_share_facts',
      'roster_share_members',
      'roster_share_pace',
      'roster_share_schema',
      'roster_share_state',
      'roster_share_writes',
    ]);
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: LATEST });
    expect(await main.store().state()).toMatchObject({
      reader: null,
      version: 0,
      complete: false,
      auditPosition: null,
    });
  });

  it('run again, and from two servers at once, changes nothing and keeps every row', async () => {
    const events = await shared.server();
    await Promise.all([main.store().migrate(), events.store().migrate()]);
    const store = main.store();
    await store.writeThrough({ members: [member('m1', 'Ann', 1)] });
    await main.store().migrate();
    await Promise.all([main.store().migrate(), events.store().migrate()]);
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: LATEST });
    expect((await store.membersSince(SHARED_START, 10)).rows.map((row) => row.memberId)).toEqual(['m1']);
    expect(await shared.query('SELECT COUNT(*) AS n FROM roster_share_state')).toEqual([{ n: 1 }]);
  });

  it('over tables of an older step, runs only the newer steps, once, and keeps the rows', async () => {
    await main.store().migrate();
    await main.store().writeThrough({ members: [member('m1', 'Ann', 1)] });
    const later = main.store({ schema: [...SHARE_SCHEMA, LATER] });
    await later.migrate();
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: LATEST + 1 });
    await later.migrate(); // the ALTER would fail if it ran again
    expect(await shared.query('SELECT member_id, note FROM roster_share_members')).toEqual([
      { member_id: 'm1', note: null },
    ]);
    expect((await later.membersSince(SHARED_START, 10)).rows).toHaveLength(1);
  });

  it('upgrades tables of the first release: the facts table added, the members kept', async () => {
    const first = main.store({ schema: SHARE_SCHEMA.slice(0, 1) });
    await first.migrate();
    await first.writeThrough({ members: [member('m1', 'Ann', 1)] });
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: 1 });
    const now = main.store();
    await now.migrate();
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: LATEST });
    expect(await tables()).toContain('roster_share_facts');
    expect((await now.membersSince(SHARED_START, 10)).rows.map((row) => row.memberId)).toEqual(['m1']);
    await now.putFact('catalog', { departments: [], ranks: [] });
    expect(await now.fact('catalog')).toMatchObject({ value: { departments: [], ranks: [] } });
  });

  it('finishes tables an earlier start left half made (version row at 0)', async () => {
    await shared.query(
      'CREATE TABLE roster_share_schema (name VARCHAR(64) CHARACTER SET ascii NOT NULL PRIMARY KEY, version INT NOT NULL)',
    );
    await shared.query("INSERT INTO roster_share_schema VALUES ('roster_share', 0)");
    await shared.query(SHARE_SCHEMA[0]?.statements[0] ?? '');
    await main.store().migrate();
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: LATEST });
    expect(await tables()).toHaveLength(9);
  });

  it('refuses tables of a newer release, and leaves them as they are', async () => {
    await main.store({ schema: [...SHARE_SCHEMA, LATER] }).migrate();
    await expect(main.store().migrate()).rejects.toMatchObject({ failure: 'schema' });
    expect(await schemaVersion()).toEqual({ name: 'roster_share', version: LATEST + 1 });
  });

  it('names the key by the hash of its id only', async () => {
    await main.store().migrate();
    expect(await shared.query('SELECT key_hash FROM roster_share_state')).toEqual([{ key_hash: KEY_HASH }]);
  });
});
