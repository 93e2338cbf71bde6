import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LuaResource } from '../../dev/emulator';
import { type OxmysqlRig, startOxmysqlRig } from './oxmysql-rig';

// A Lua resource calling the oxmysql stand-in the way oxmysql's Lua library (MySQL.*) does:
// `exports.oxmysql:<name>(...)`, answers and errors crossing as msgpack into Lua.
let rig: OxmysqlRig;
let lua: LuaResource;

beforeAll(async () => {
  rig = await startOxmysqlRig();
  await rig.db.query('CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20))');
  await rig.db.query("INSERT INTO members VALUES (1, 'Alice'), (2, 'Bob')");
  lua = await rig.server.createLuaResource('luacaller');
});

afterAll(() => rig?.close());

describe('from Lua', () => {
  it('the promise form answers directly inside the coroutine, named parameters from a Lua table', async () => {
    const name = await lua.run(
      `return exports.oxmysql:scalar_async('SELECT name FROM members WHERE id = @id', { ['@id'] = 2 })`,
    );
    expect(name).toBe('Bob');
    const rows = await lua.run(`
      local rows = exports.oxmysql:query_async('SELECT id FROM members WHERE id IN (?, ?) ORDER BY id', { 1, 2 })
      return #rows * 10 + rows[2].id`);
    expect(rows).toBe(22);
  });

  it('the callback form calls a Lua function back', async () => {
    const id = await lua.run(`
      local p = promise.new()
      exports.oxmysql:insert('INSERT INTO members VALUES (?, ?)', { 3, 'Carol' }, function(insertId, err)
        p:resolve(err or exports.oxmysql:scalar_async('SELECT name FROM members WHERE id = 3'))
      end)
      return Citizen.Await(p)`);
    expect(id).toBe('Carol');
  });

  it('a failed query raises a Lua error with oxmysql’s text in the promise form', async () => {
    const message = await lua.run(`
      local ok, err = pcall(function() return exports.oxmysql:query_async('SELECT * FROM nowhere') end)
      return tostring(ok) .. ' ' .. tostring(err)`);
    expect(message).toMatch(
      /^false .*luacaller was unable to execute a query!\n\s*Query: SELECT \* FROM nowhere\n\s*\[\]\n.*doesn't exist/s,
    );
  });

  it('with the promise flag a failure reaches the Lua callback as (nil, message)', async () => {
    const message = await lua.run(`
      local p = promise.new()
      exports.oxmysql:update('UPDATE nowhere SET x = 1', {}, function(result, err)
        p:resolve(tostring(result) .. '|' .. tostring(err))
      end, GetCurrentResourceName(), true)
      return Citizen.Await(p)`);
    expect(message).toMatch(
      /^nil\|luacaller was unable to execute a query!\nQuery: UPDATE nowhere SET x = 1/,
    );
  });
});
