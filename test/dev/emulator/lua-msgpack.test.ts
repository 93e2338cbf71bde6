// Values between JS and Lua resources cross as msgpack bytes, as in FXServer: the JS side packs
// with main.js's codec (data/shared/citizen/scripting/v8/msgpack.js), the Lua side with
// lua-cmsgpack as scheduler.lua configures it (data/shared/citizen/scripting/lua/scheduler.lua:
// string_compat, unsigned integers, without_hole, empty_table_as_array).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer, type LuaResource, type ScriptResource } from '../../../dev/emulator';

let server: FxServer;
let js: ScriptResource;
let lua: LuaResource;

beforeEach(async () => {
  server = new FxServer();
  await server.start();
  js = server.createScriptResource('values');
  js.eval(`
    var got = [];
    exports('numbers', () => [2147483647, 2147483648, -2147483648, -2147483649, 1.5, 3, 2 ** 40]);
    exports('shape', (x) => (Array.isArray(x) ? 'array:' + x.length : x === null ? 'null' : typeof x === 'object' ? 'object:' + Object.keys(x).join(',') : typeof x));
    exports('count', (...args) => args.length);
    exports('bytes', () => new Uint8Array([0xff, 0x00, 0x41]).buffer);
    exports('echo', (...args) => args);
    exports('fails', () => { throw new Error('boom'); });
    exports('rejects', async () => { throw new Error('nope'); });
    exports('rejectsLater', () => new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 1)));
    exports('later', async (v) => v);
    exports('callBack', (fn, v) => fn(v));
    on('fromLua', (...args) => got.push(args));`);
  lua = await server.createLuaResource('luacaller');
});
afterEach(() => {
  lua.close();
  server.stop();
});

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

it('JS numbers from 2^31 up (and below -2^31) travel as float64 and reach Lua as floats', async () => {
  expect(
    await lua.run(`
      local n = exports.values:numbers()
      local types = {}
      for i = 1, #n do types[i] = math.type(n[i]) end
      return table.concat(types, ',')`),
  ).toBe('integer,float,integer,float,float,integer,float');
  await lua.run(`AddEventHandler('big', function(v) bigType = math.type(v) end)`);
  js.emit('big', 2 ** 31);
  expect(await lua.run('return bigType')).toBe('float');
});

it('an empty Lua table reaches JS as an array; a table with holes or other keys as an object', async () => {
  expect(await lua.run(`return exports.values:shape({})`)).toBe('array:0');
  expect(await lua.run(`return exports.values:shape({ 1, 2 })`)).toBe('array:2');
  expect(await lua.run(`return exports.values:shape({ 1, nil, 3 })`)).toBe('object:1,3');
  expect(await lua.run(`return exports.values:shape({ [2] = 'b' })`)).toBe('object:2');
  expect(await lua.run(`return exports.values:shape({ 'a', x = 1 })`)).toBe('object:1,x');
  expect(await lua.run(`return exports.values:shape({ [0] = 'z' })`)).toBe('object:0');
  // pack_args: arguments are one sequence, trailing nils included.
  expect(await lua.run(`return exports.values:count(1, nil, nil)`)).toBe(3);
  expect(await lua.run(`return exports.values:shape(nil)`)).toBe('null');
});

it('a rejected async export raises the scheduler.lua error in the calling coroutine, wrapped as an export error', async () => {
  const message = String(
    await lua.run(`local ok, e = pcall(function() return exports.values:rejects() end) return e`),
  );
  expect(message).toMatch(
    /An error occurred while calling export `rejects` in resource `values`:\n {2}citizen:\/scripting\/lua\/scheduler\.lua:\d+: nope\n\^5 ---$/,
  );
  const later = String(
    await lua.run(`local ok, e = pcall(function() return exports.values:rejectsLater() end) return e`),
  );
  expect(later).toMatch(/resource `values`:\n {2}citizen:\/scripting\/lua\/scheduler\.lua:\d+: late\n/);
});

it('a throwing JS export reaches Lua as the export error around nil (the callee answered nil)', async () => {
  const message = String(
    await lua.run(`local ok, e = pcall(function() return exports.values:fails() end) return e`),
  );
  expect(message).toMatch(
    /An error occurred while calling export `fails` in resource `values`:\n {2}nil\n\^5 ---$/,
  );
  expect(server.log.of('values').join('\n')).toContain('SCRIPT ERROR in call ref: Error: boom');
});

it('bin reaches Lua as the exact bytes, not text', async () => {
  expect(
    await lua.run(
      `local s = exports.values:bytes() return #s .. ':' .. s:byte(1) .. ',' .. s:byte(2) .. ',' .. s:sub(3)`,
    ),
  ).toBe('3:255,0,A');
});

it('Lua floats reach JS as numbers and come back as Lua integers when whole (JS cannot tell them apart)', async () => {
  expect(
    await lua.run(`
      local a, b, c = table.unpack(exports.values:echo(3.0, 2.5, 7))
      return table.concat({ math.type(a), math.type(b), math.type(c) }, ',')`),
  ).toBe('integer,float,integer');
});

it("TriggerEvent from Lua reaches a JS listener with lua-cmsgpack's shapes", async () => {
  await lua.run(`TriggerEvent('fromLua', {}, 2^31, { 1, nil, 3 }, nil, 'x', { a = {} })`);
  expect(plain(js.eval('got'))).toEqual([[[], 2147483648, { 1: 1, 3: 3 }, null, 'x', { a: [] }]]);
});

it('Lua exports are callable from JS: values, nothing, errors, and awaited results', async () => {
  await lua.run(`
    exports('double', function(x) return x * 2 end)
    exports('nothing', function() end)
    exports('empty', function() return {} end)
    exports('holes', function() return 1, nil, 3 end)
    exports('broken', function() error('lua broke') end)
    exports('awaits', function(v) return exports.values:later(v) .. '!' end)`);
  const callee = js.exports.luacaller!;
  expect(callee.double!(21)).toBe(42);
  expect(callee.nothing!()).toBeUndefined();
  expect(plain(callee.empty!())).toEqual([]);
  // scheduler.lua packs the return values as one table: a nil inside makes it a map.
  expect(plain(callee.holes!())).toEqual({ 1: 1, 3: 3 });
  expect(() => callee.broken!()).toThrow(
    'An error occurred while calling export broken of resource luacaller - see above for details',
  );
  expect(server.log.of('luacaller').join('\n')).toMatch(/SCRIPT ERROR: .*lua broke/);
  await expect(callee.awaits!('hi')).resolves.toBe('hi!');
});

it('functions cross both ways as funcrefs', async () => {
  expect(await lua.run(`return exports.values:callBack(function(v) return v + 1 end, 41)`)).toBe(42);
  await lua.run(`AddEventHandler('withCallback', function(cb) answer = cb('from lua') end)`);
  js.emit('withCallback', (text: string) => `${text}, answered in JS`);
  expect(await lua.run('return answer')).toBe('from lua, answered in JS');
});

it('a JS export that returns a function gives Lua a callable funcref, sync or async', async () => {
  js.eval(`
    exports('maker', () => (x) => x * 3);
    exports('asyncMaker', () => async (x) => x + '!');`);
  expect(await lua.run(`local f = exports.values:maker() return f(5)`)).toBe(15);
  expect(await lua.run(`local f = exports.values:asyncMaker() return f('later')`)).toBe('later!');
  expect(await lua.run(`local f = exports.values:maker() return (pcall(function() return f.x end))`)).toBe(
    false,
  );
});

it('msgpack.pack writes lua-cmsgpack bytes: v4 raw strings, smallest unsigned integers, float64 for floats', async () => {
  const bytes = async (expr: string) =>
    (await lua.run(
      `local s = msgpack.pack(${expr}) local t = {} for i = 1, #s do t[i] = ('%02x'):format(s:byte(i)) end return table.concat(t, ' ')`,
    )) as string;
  expect(await bytes(`'abc'`)).toBe('a3 61 62 63');
  expect((await bytes(`string.rep('x', 40)`)).slice(0, 8)).toBe('da 00 28');
  expect(await bytes('200, -1, -200, 70000')).toBe('cc c8 ff d1 ff 38 ce 00 01 11 70');
  expect(await bytes('3.0')).toBe('cb 40 08 00 00 00 00 00 00');
  expect(await bytes('{}, { 1, nil, 3 }, true, nil')).toBe('90 82 01 01 03 03 c3 c0');
});

it('a table nested 16 levels below the top packs as nil', async () => {
  await lua.run(`
    exports('deep', function()
      local root = {}
      local t = root
      for _ = 1, 20 do t.child = {}; t = t.child end
      return root
    end)`);
  // The answer is packed as { deep() }: that table is level 0, the value level 1, and the table at
  // level 16 becomes nil, so JS sees 15 tables.
  let depth = 0;
  for (let t = js.exports.luacaller!.deep!() as { child?: unknown } | null; t; t = t.child as typeof t)
    depth++;
  expect(depth).toBe(15);
});
