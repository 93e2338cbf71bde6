// Lua values and events as FXServer's Lua scheduler gives them
// (data/shared/citizen/scripting/lua/scheduler.lua): payloads unpacked by msgpack into plain
// tables and nil, every handler in its own coroutine (CreateThreadNow), `source` from the event's
// source for the synchronous part of the handlers.
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer, type LuaResource } from '../../../dev/emulator';

const ECHO = path.join(import.meta.dirname, 'fixtures/echo');
let server: FxServer;
let lua: LuaResource;

beforeEach(async () => {
  server = new FxServer();
  await server.start();
  server.startResource('echo', ECHO);
  const values = server.createScriptResource('values');
  values.eval(`
    exports('nothing', () => null);
    exports('missing', () => undefined);
    exports('later', async () => null);
    exports('member', () => ({ id: 'm1', discord: null, departments: [{ id: 'd1', rank: null }], tags: [1, null, 3] }));
    exports('memberLater', async () => ({ id: 'm2', departments: [] }));`);
  lua = await server.createLuaResource('luacaller');
});
afterEach(() => {
  lua.close();
  server.stop();
});

it('JS null and undefined reach Lua as nil, objects and arrays as plain tables, never userdata', async () => {
  expect(await lua.run(`return exports.values:nothing() == nil`)).toBe(true);
  expect(await lua.run(`return type((exports.values:missing()))`)).toBe('nil');
  expect(await lua.run(`return type((exports.values:later()))`)).toBe('nil');
  // The answer [null] unpacks to an empty table and table.unpack gives no values at all
  // (scheduler.lua), so `type(exports.values:missing())` raises "value expected" as in FXServer.
  expect(await lua.run(`return select('#', exports.values:missing())`)).toBe(0);
  expect(await lua.run(`return select('#', exports.values:later())`)).toBe(0);
  expect(
    await lua.run(`
      local m = exports.values:member()
      return table.concat({ type(m), type(m.departments), type(m.departments[1]), tostring(m.discord),
        tostring(m.departments[1].rank), tostring(m.tags[2]), tostring(m.tags[3]), m.departments[1].id }, ',')`),
  ).toBe('table,table,table,nil,nil,nil,3,d1');
  // A nil map value leaves the key out, as msgpack unpacks it.
  expect(await lua.run(`local n = 0 for _ in pairs(exports.values:member()) do n = n + 1 end return n`)).toBe(
    3,
  );
  expect(
    await lua.run(
      `local m = exports.values:memberLater() return type(m) .. ',' .. m.id .. ',' .. #m.departments`,
    ),
  ).toBe('table,m2,0');
});

it('AddEventHandler: arguments as plain tables, source "" for a local event, each handler in a coroutine', async () => {
  await lua.run(`
    got = {}
    AddEventHandler('ev', function(a, b, c)
      got[#got + 1] = { type(a), a.x == nil, a.y[2], b, tostring(c), type(source), source }
    end)`);
  server.createScriptResource('sender').emit('ev', { x: null, y: [1, 2] }, 'text', null);
  expect(
    await lua.run(
      `local g = got[1] return table.concat({ g[1], tostring(g[2]), g[3], g[4], g[5], g[6], g[7] }, ',')`,
    ),
  ).toBe('table,true,2,text,nil,string,');
});

it('net events reach only RegisterNetEvent handlers with source as a number; internal-net too; source is gone after a yield', async () => {
  await lua.run(`
    seen = {}
    AddEventHandler('plain', function() seen[#seen + 1] = 'plain ran' end)
    RegisterNetEvent('ask', function(v)
      local before = source
      local answer = exports.echo:later(v)
      seen[#seen + 1] = table.concat({ math.type(before), before, answer, tostring(source) }, ',')
    end)
    AddEventHandler('playerConnecting', function(name) seen[#seen + 1] = name .. '@' .. source end)`);
  server.emitNet('plain', 3);
  server.emitNet('ask', 5, 'hi');
  server.connectPlayer({ name: 'Ann', identifiers: ['license:1'] });
  await new Promise((r) => setTimeout(r, 150));
  expect(server.log.of('luacaller')).toContain('event plain was not safe for net');
  expect(await lua.run(`return table.concat(seen, ';')`)).toBe('Ann@65536;integer,5,hi,nil');
});

it('Wait(ms) resumes the handler on a frame at least ms later, with source gone', async () => {
  await lua.run(`
    waited = {}
    RegisterNetEvent('slow', function()
      local before = source
      Wait(120)
      waited[#waited + 1] = table.concat({ before, tostring(source) }, ',')
    end)`);
  const from = server.frames;
  server.emitNet('slow', 7);
  expect(await lua.run('return #waited')).toBe(0);
  let frames = 0;
  for (let i = 0; i < 100 && (await lua.run('return #waited')) === 0; i++) {
    await server.nextTick();
    frames = server.frames - from;
  }
  expect(await lua.run('return waited[1]')).toBe('7,nil');
  // Frames are 50 ms: a timer fires once more than 120 ms have passed, on the third frame or later.
  expect(frames).toBeGreaterThanOrEqual(3);
});

it('RemoveEventHandler stops a handler; a throwing handler is a SCRIPT ERROR and the others still run', async () => {
  await lua.run(`
    n = 0
    local h = AddEventHandler('tick', function() n = n + 100 end)
    AddEventHandler('tick', function() error('bad handler') end)
    AddEventHandler('tick', function() n = n + 1 end)
    RemoveEventHandler(h)`);
  server.emitFromServer('tick');
  await new Promise((r) => setTimeout(r, 20));
  expect(await lua.run('return n')).toBe(1);
  expect(server.log.of('luacaller').join('\n')).toMatch(/SCRIPT ERROR in event tick: .*bad handler/);
});
