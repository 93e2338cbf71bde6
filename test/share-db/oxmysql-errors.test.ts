import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../integration/harness';
import {
  frames,
  loadWrapper,
  type OxmysqlRig,
  startOxmysqlRig,
  withCallback,
  withPromiseFlag,
} from './oxmysql-rig';

// How the oxmysql stand-in reports a failed query to each kind of caller.
let rig: OxmysqlRig;
const errors: unknown[] = [];

beforeAll(async () => {
  rig = await startOxmysqlRig();
  await rig.db.query('CREATE TABLE ranks (id INT PRIMARY KEY, name VARCHAR(20))');
  rig.caller.on('oxmysql:error', (payload: unknown) => errors.push(payload));
});

afterAll(() => rig?.close());

const missingTable = "Table '%s.nowhere' doesn't exist";

describe('a statement the server refuses', () => {
  it('rejects the promise form with who, the query, its parameters and the server message', async () => {
    const failure = rig.ox.query_async('SELECT * FROM nowhere WHERE id = ?', [7]);
    await expect(failure).rejects.toBe(
      `caller was unable to execute a query!\nQuery: SELECT * FROM nowhere WHERE id = ?\n[7]\n${missingTable.replace('%s', rig.db.name)}`,
    );
  });

  it('never calls a plain callback: the error is a console line of oxmysql', async () => {
    const before = rig.server.log.of('oxmysql').length;
    const answer = withCallback(rig, 'single', 'SELECT * FROM nowhere WHERE id = ?', [8]);
    await eventually(() => rig.server.log.of('oxmysql').length > before);
    await frames(rig, 5);
    expect(answer.called).toBe(false);
    expect(rig.server.log.of('oxmysql').slice(before)).toEqual([
      'caller was unable to execute a query!',
      'Query: SELECT * FROM nowhere WHERE id = ?',
      '[8]',
      missingTable.replace('%s', rig.db.name),
    ]);
  });

  it('calls back (null, message) instead when the caller passes the promise flag, as the wrappers do', async () => {
    const answer = withPromiseFlag(rig, 'scalar', 'SELECT nope FROM ranks', []);
    await answer.settled;
    const [result, message] = answer.args;
    expect(result).toBeNull();
    expect(message).toBe(
      "caller was unable to execute a query!\nQuery: SELECT nope FROM ranks\n[]\nUnknown column 'nope' in 'SELECT'",
    );
  });

  it('sends oxmysql:error to every resource with the query, parameters, message and resource', async () => {
    errors.length = 0;
    await rig.ox.update_async('UPDATE nowhere SET x = ?', [1]).catch(() => {});
    await eventually(() => errors.length > 0);
    expect(errors[0]).toMatchObject({
      query: 'UPDATE nowhere SET x = ?',
      parameters: [1],
      message: missingTable.replace('%s', rig.db.name),
      resource: 'caller',
    });
  });
});

describe('arguments oxmysql cannot read', () => {
  it('more parameters than placeholders: rejected before the server, without a parameter line', async () => {
    await expect(rig.ox.query_async('SELECT ?', [1, 2])).rejects.toBe(
      'caller was unable to execute a query!\nQuery: SELECT ?\nExpected 1 parameters, but received 2.',
    );
  });

  it('a transaction that is not a list rejects the promise form', async () => {
    await expect(rig.ox.transaction_async('SELECT 1')).rejects.toBe(
      "caller was unable to execute a query!\nTransaction queries must be array, received 'string'.",
    );
  });
});

describe('the community wrapper (@overextended/oxmysql)', () => {
  it('answers through the promise flag and rejects with the same text', async () => {
    const MySQL = await loadWrapper(rig);
    await rig.ox.insert_async('INSERT INTO ranks VALUES (?, ?)', [1, 'Cadet']);
    expect(await MySQL.scalar?.('SELECT name FROM ranks WHERE id = ?', [1])).toBe('Cadet');
    expect(await MySQL.query?.('SELECT * FROM ranks')).toEqual([{ id: 1, name: 'Cadet' }]);
    let viaCallback: unknown;
    await MySQL.single?.('SELECT id FROM ranks', (row: unknown) => {
      viaCallback = row;
    });
    expect(viaCallback).toEqual({ id: 1 });
    await expect(MySQL.update?.('UPDATE nowhere SET x = 1')).rejects.toBe(
      `caller was unable to execute a query!\nQuery: UPDATE nowhere SET x = 1\n[]\n${missingTable.replace('%s', rig.db.name)}`,
    );
    expect(await MySQL.transaction?.([['INSERT INTO ranks VALUES (?, ?)', [1, 'Again']]])).toBe(false);
  });
});
