import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OxmysqlRig, startOxmysqlRig } from './oxmysql-rig';

// How the oxmysql stand-in reads parameters and what the columns come back as, through the
// export boundary (msgpack) as a resource sees them.
let rig: OxmysqlRig;

beforeAll(async () => {
  rig = await startOxmysqlRig();
});

afterAll(() => rig?.close());

describe('placeholders', () => {
  it('named @name and :name take their value, keys with or without the sigil, missing ones NULL', async () => {
    const row = await rig.ox.single_async('SELECT @a AS a, :b AS b, @missing AS c, @a AS again', {
      '@a': 'x',
      b: 2,
    });
    expect(row).toEqual({ a: 'x', b: 2, c: null, again: 'x' });
  });

  it('a name inside quotes stays text', async () => {
    expect(await rig.ox.scalar_async("SELECT CONCAT(':b', ' ', @b)", { b: 'y' })).toBe(':b y');
  });

  it('an object with 1-based keys fills the ? in order (a Lua table), holes NULL', async () => {
    expect(await rig.ox.single_async('SELECT ? AS a, ? AS b, ? AS c', { 1: 'one', 3: 'three' })).toEqual({
      a: 'one',
      b: null,
      c: 'three',
    });
  });

  it('too few positional parameters are NULL', async () => {
    expect(await rig.ox.single_async('SELECT ? AS a, ? AS b', ['one'])).toEqual({ a: 'one', b: null });
  });

  it('named placeholders are off with namedPlaceholders=false in the connection string', async () => {
    const plain = await startOxmysqlRig({
      connectionString: (db, link) =>
        `${db.connectionString({ host: link.host, port: link.port })}?namedPlaceholders=false`,
    });
    try {
      // `@a` is the server's user variable (unset: a NULL binary value), `?` the first 1-based key.
      expect(await plain.ox.single_async('SELECT @a AS a, ? AS b', { a: 5, 1: 'z' })).toEqual({
        a: [null],
        b: 'z',
      });
    } finally {
      await plain.close();
    }
  });
});

describe('columns', () => {
  beforeAll(async () => {
    await rig.db.query(
      'CREATE TABLE kinds (flag TINYINT(1), small TINYINT, seen DATETIME, day DATE, doc JSON, big BIGINT, bytes BLOB, text_col TEXT, empty_bytes BLOB)',
    );
    await rig.db.query(
      "INSERT INTO kinds VALUES (1, 7, '2026-03-04 05:06:07', '2026-03-04', '{\"a\":1}', 9007199254740993, x'00ff41', 'hi', NULL)",
    );
  });

  it('query: booleans, dates as local milliseconds, JSON as text, big numbers exact, binary as bytes', async () => {
    const row = await rig.ox.single_async('SELECT * FROM kinds');
    expect(row).toEqual({
      flag: true,
      small: 7,
      seen: new Date('2026-03-04 05:06:07').getTime(),
      day: new Date('2026-03-04 00:00:00').getTime(),
      doc: '{"a":1}',
      big: '9007199254740993',
      bytes: [0, 255, 65],
      text_col: 'hi',
      empty_bytes: [null],
    });
  });

  it('prepare: dates as milliseconds, TINYINT(1) a number, binary as bytes, NULL as null', async () => {
    const row = await rig.ox.rawExecute_async(
      'SELECT flag, seen, bytes, empty_bytes FROM kinds WHERE small = ?',
      [7],
    );
    expect(row).toEqual([
      { flag: 1, seen: new Date('2026-03-04 05:06:07').getTime(), bytes: [0, 255, 65], empty_bytes: null },
    ]);
  });
});
