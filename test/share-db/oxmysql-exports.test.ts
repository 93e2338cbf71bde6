import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OxmysqlRig, startOxmysqlRig, withCallback } from './oxmysql-rig';

// Each export of the oxmysql stand-in as another JS resource calls it across the export boundary,
// in its promise form (`<name>_async`) and its callback form, against a real MariaDB.
let rig: OxmysqlRig;

beforeAll(async () => {
  rig = await startOxmysqlRig();
  await rig.db.query(
    'CREATE TABLE members (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, rank_id INT NULL, active TINYINT(1) NOT NULL DEFAULT 1)',
  );
  await rig.db.query("INSERT INTO members (name, rank_id) VALUES ('Alice', 3), ('Bob', NULL), ('Carol', 0)");
});

afterAll(() => rig?.close());

describe('query', () => {
  it('answers the rows, TINYINT(1) as booleans', async () => {
    const rows = await rig.ox.query_async(
      'SELECT id, name, active FROM members WHERE id < ? ORDER BY id',
      [3],
    );
    expect(rows).toEqual([
      { id: 1, name: 'Alice', active: true },
      { id: 2, name: 'Bob', active: true },
    ]);
  });

  it('answers a write with its result header', async () => {
    const header = await rig.ox.query_async('UPDATE members SET active = 1 WHERE id > ?', [100]);
    expect(header).toMatchObject({ affectedRows: 0, insertId: 0, warningStatus: 0 });
  });

  it('calls back with the rows; the parameters may be left out', async () => {
    const answer = withCallback(rig, 'query', 'SELECT name FROM members WHERE id = 1');
    await answer.settled;
    expect(answer.args).toEqual([[{ name: 'Alice' }]]);
  });

  it('answers nothing itself (undefined crosses msgpack as null)', () => {
    expect(rig.ox.query('SELECT 1')).toBeNull();
  });
});

describe('single and scalar', () => {
  it('single answers the first row, or null', async () => {
    expect(await rig.ox.single_async('SELECT name FROM members ORDER BY id')).toEqual({ name: 'Alice' });
    expect(await rig.ox.single_async('SELECT name FROM members WHERE id = ?', [99])).toBeNull();
    const answer = withCallback(rig, 'single', 'SELECT id FROM members WHERE name = ?', ['Bob']);
    await answer.settled;
    expect(answer.args).toEqual([{ id: 2 }]);
  });

  it('scalar answers the first column of the first row, 0 as 0, nothing as null', async () => {
    expect(await rig.ox.scalar_async('SELECT name, id FROM members WHERE id = ?', [2])).toBe('Bob');
    expect(await rig.ox.scalar_async("SELECT rank_id FROM members WHERE name = 'Carol'")).toBe(0);
    expect(await rig.ox.scalar_async("SELECT rank_id FROM members WHERE name = 'Bob'")).toBeNull();
    expect(await rig.ox.scalar_async('SELECT id FROM members WHERE id = 99')).toBeNull();
    const answer = withCallback(rig, 'scalar', 'SELECT COUNT(*) FROM members WHERE id <= ?', [3]);
    await answer.settled;
    expect(answer.args).toEqual([3]);
  });
});

describe('insert and update', () => {
  it('insert answers the new id', async () => {
    const id = await rig.ox.insert_async('INSERT INTO members (name) VALUES (?)', ['Dave']);
    expect(id).toBe(4);
    const answer = withCallback(rig, 'insert', 'INSERT INTO members (name) VALUES (?)', ['Erin']);
    await answer.settled;
    expect(answer.args).toEqual([5]);
  });

  it('update answers the affected rows', async () => {
    expect(await rig.ox.update_async('UPDATE members SET active = 0 WHERE id IN (?, ?)', [4, 5])).toBe(2);
    const answer = withCallback(rig, 'update', 'DELETE FROM members WHERE id > ?', [3]);
    await answer.settled;
    expect(answer.args).toEqual([2]);
  });
});

describe('prepare and rawExecute (prepared statements)', () => {
  it('prepare answers one value, one row, or the rows', async () => {
    expect(await rig.ox.prepare_async('SELECT name FROM members WHERE id = ?', [1])).toBe('Alice');
    expect(await rig.ox.prepare_async('SELECT id, name FROM members WHERE id = ?', [2])).toEqual({
      id: 2,
      name: 'Bob',
    });
    expect(await rig.ox.prepare_async('SELECT id FROM members WHERE id < ? ORDER BY id', [3])).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
    expect(await rig.ox.prepare_async('SELECT id FROM members WHERE id = ?', [99])).toBeNull();
  });

  it('prepare answers an insert id per parameter set, by the first word in capitals', async () => {
    const ids = await rig.ox.prepare_async('INSERT INTO members (name) VALUES (?)', [['Finn'], ['Gus']]);
    expect(ids).toEqual([6, 7]);
    // In lower case the kind is unknown: prepare looks for a first row in the header and finds none.
    expect(await rig.ox.prepare_async('insert into members (name) values (?)', ['Hana'])).toBeNull();
    const header = await rig.ox.rawExecute_async('insert into members (name) values (?)', ['Ida']);
    expect(header).toMatchObject({ affectedRows: 1, insertId: 9 });
    expect(await rig.ox.prepare_async('DELETE FROM members WHERE id > ?', [5])).toBe(4);
  });

  it('rawExecute answers the rows whatever their number, and calls back', async () => {
    expect(await rig.ox.rawExecute_async('SELECT id FROM members WHERE id = ?', [1])).toEqual([{ id: 1 }]);
    const answer = withCallback(rig, 'rawExecute', 'SELECT id FROM members WHERE id <= ? ORDER BY id', [2]);
    await answer.settled;
    expect(answer.args).toEqual([[{ id: 1 }, { id: 2 }]]);
  });
});

describe('transaction', () => {
  it('commits every statement and answers true, in each of its three shapes', async () => {
    await rig.db.query('CREATE TABLE ledger (id INT PRIMARY KEY, amount INT NOT NULL)');
    expect(
      await rig.ox.transaction_async([
        ['INSERT INTO ledger VALUES (?, ?)', [1, 10]],
        ['INSERT INTO ledger VALUES (@id, @amount)', { id: 2, amount: 20 }],
      ]),
    ).toBe(true);
    expect(
      await rig.ox.transaction_async([
        { query: 'UPDATE ledger SET amount = amount + ? WHERE id = 1', values: [5] },
      ]),
    ).toBe(true);
    const answer = withCallback(
      rig,
      'transaction',
      ['UPDATE ledger SET amount = amount * 2 WHERE id = :id', 'INSERT INTO ledger VALUES (:id + 10, 0)'],
      { id: 2 },
    );
    await answer.settled;
    expect(answer.args).toEqual([true]);
    expect(await rig.db.query('SELECT * FROM ledger ORDER BY id')).toEqual([
      { id: 1, amount: 15 },
      { id: 2, amount: 40 },
      { id: 12, amount: 0 },
    ]);
  });

  it('rolls back and answers false when a statement fails: no rejection', async () => {
    await rig.db.query('CREATE TABLE pair (id INT PRIMARY KEY)');
    const committed = await rig.ox.transaction_async([
      ['INSERT INTO pair VALUES (?)', [1]],
      ['INSERT INTO pair VALUES (?)', [1]],
    ]);
    expect(committed).toBe(false);
    expect(await rig.db.query('SELECT * FROM pair')).toEqual([]);
    expect(rig.oxLog()).toContain(
      'caller was unable to complete a transaction!\nINSERT INTO pair VALUES (1)',
    );
  });
});

describe('startTransaction', () => {
  it('runs the caller function on one connection and commits unless it answers false', async () => {
    await rig.db.query('CREATE TABLE steps (id INT PRIMARY KEY)');
    // The caller's own async functions, made in its realm as a resource's code is.
    const count = rig.caller.eval(`(async (query) => {
      await query('INSERT INTO steps VALUES (?)', [1]);
      const rows = await query('SELECT COUNT(*) AS n FROM steps', []);
      return rows[0].n === 1;
    })`);
    expect(await rig.ox.startTransaction(count)).toBe(true);
    const undo = rig.caller.eval(`(async (query) => {
      await query('INSERT INTO steps VALUES (@id)', { id: 2 });
      return false;
    })`);
    expect(await rig.ox.startTransaction(undo)).toBe(false);
    expect(await rig.db.query('SELECT id FROM steps')).toEqual([{ id: 1 }]);
    expect(rig.oxLog()).toContain('startTransaction is "experimental"');
  });

  it('rolls back and answers false when a statement fails, with the SQL in the console', async () => {
    const failing = rig.caller.eval(`(async (query) => {
      await query('INSERT INTO steps VALUES (?)', [3]);
      await query('INSERT INTO nowhere VALUES (?)', [4]);
    })`);
    expect(await rig.ox.startTransaction(failing)).toBe(false);
    expect(await rig.db.query('SELECT id FROM steps WHERE id = 3')).toEqual([]);
    expect(rig.oxLog()).toMatch(
      /caller was unable to execute a query!\nQuery: INSERT INTO nowhere VALUES \(\?\)\n\[4\]\n.*nowhere' doesn't exist/,
    );
  });
});

describe('readiness and store', () => {
  it('isReady is true and awaitConnection resolves true once the pool is up', async () => {
    expect(rig.ox.isReady()).toBe(true);
    expect(await rig.ox.awaitConnection()).toBe(true);
  });

  it('store hands the query back', () => {
    let stored: unknown;
    rig.ox.store('SELECT 1', (q: unknown) => {
      stored = q;
    });
    expect(stored).toBe('SELECT 1');
  });
});
