/**
 * What a Lua stand-in of a real resource (dev/stand-ins) needs from the emulator: Citizen.Wait on
 * the server's frames, scheduler.lua's GetPlayerIdentifiers over the natives, threads made by an
 * event handler started on the next frame, and startLuaCode's code loaded before other
 * resources hear onServerResourceStart.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

it('Citizen.Wait resumes on a server frame: 0 on the next one, 500 once 500 ms of game time passed', async () => {
  const lua = await server.createLuaResource('waiter');
  const from = server.frames;
  await lua.run('Citizen.Wait(0)');
  expect(server.frames - from).toBeGreaterThanOrEqual(1);
  // Game time is the host's clock: a busy machine runs fewer frames in it, never a shorter wait.
  const before = server.frames;
  const at = server.now();
  await lua.run('Wait(500)');
  expect(server.now() - at).toBeGreaterThanOrEqual(500);
  expect(server.frames - before).toBeGreaterThanOrEqual(1);
});

it('playerConnecting in Lua: identifiers and name through the natives, deferrals as funcrefs', async () => {
  const lua = await server.createLuaResource('gatekeeper');
  await lua.run(`
    AddEventHandler('playerConnecting', function(name, _, deferrals)
      local src = source
      local ids = GetPlayerIdentifiers(src)
      deferrals.defer()
      Citizen.CreateThread(function()
        Citizen.Wait(100)
        if ids[1] == 'license:${'a'.repeat(40)}' and GetPlayerName(src) == name then
          deferrals.done()
        else
          deferrals.done('who are you')
        end
      end)
    end)`);
  const known = server.connectPlayer({ name: 'Known', identifiers: [`license:${'a'.repeat(40)}`] });
  const other = server.connectPlayer({ name: 'Other', identifiers: [`license:${'b'.repeat(40)}`] });
  expect(await known.decision).toMatchObject({ admitted: true });
  expect(await other.decision).toEqual({ admitted: false, reason: 'who are you' });
});

it('a Lua resource started from code has its exports before onServerResourceStart reaches others', async () => {
  const watcher = server.createScriptResource('watcher');
  const heard: unknown[] = [];
  watcher.on('onServerResourceStart', (name: unknown) => {
    if (name === 'luaside') heard.push(watcher.exports.luaside!.answer!());
  });
  await server.startLuaCode('luaside', `exports('answer', function() return 42 end)`);
  await server.nextTick();
  await server.nextTick();
  expect(heard).toEqual([42]);
});
