// InitConnectMethod.cpp: once a connecting client's ticket is verified, a client still known with
// the same GUID is dropped ("Reconnecting", CLIENT_REPLACED) before playerConnecting. The GUID is
// the connection attempt's (NetLibrary.cpp makes a new one each time), not the player's license.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const LICENSE = `license:${'a'.repeat(40)}`;
let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

function watch(): ReturnType<FxServer['createScriptResource']> {
  const a = server.createScriptResource('a');
  a.eval(`events = [];
    on('playerDropped', (reason, resource, why) => events.push(['dropped', source, reason, resource, why, GetPlayerName(source)]));
    on('playerConnecting', (name) => events.push(['connecting', source, name]));
    on('playerJoining', (old) => events.push(['joining', source, old]));`);
  return a;
}

it('a client with the GUID of a joined one drops it first: playerDropped Reconnecting, then playerConnecting', async () => {
  const a = watch();
  const first = server.connectPlayer({ name: 'Alice', identifiers: [LICENSE] });
  expect(await first.decision).toEqual({ admitted: true, id: 1 });
  const again = server.connectPlayer({ name: 'Alice', identifiers: [LICENSE], guid: first.record.guid });
  expect(await again.decision).toEqual({ admitted: true, id: 2 });
  expect(a.eval<unknown[][]>('events').slice(2)).toEqual([
    ['dropped', 1, 'Reconnecting', '__cfx_internal:server', 4, 'Alice'],
    ['connecting', 65537, 'Alice'],
    ['joining', 2, '65537'],
  ]);
  expect(server.playerList().map((p) => p.id)).toEqual([2]);
});

it('a deferred client with that GUID goes in silence: its decision ends, its later done() does nothing', async () => {
  const a = watch();
  a.eval(
    `on('playerConnecting', (name, kick, deferrals) => { deferrals.defer(); held.push(deferrals); }); held = [];`,
  );
  const first = server.connectPlayer({ name: 'Alice', identifiers: [LICENSE] });
  const again = server.connectPlayer({ name: 'Alice', identifiers: [LICENSE], guid: first.record.guid });
  expect(await first.decision).toEqual({ admitted: false, reason: 'Reconnecting', abandoned: true });
  expect(a.eval(`GetPlayerName(${first.tempId})`)).toBeNull();
  await server.nextTick();
  a.eval('held[0].done()');
  await server.nextTick();
  expect(again.completed).toBe(false);
  a.eval('held[1].done()');
  expect(await again.decision).toEqual({ admitted: true, id: 1 });
  expect(a.eval<unknown[][]>('events').filter((e) => e[0] === 'dropped')).toEqual([]);
});

it('the same license on a new connection attempt does not replace the session still on the server', async () => {
  const a = watch();
  const first = server.connectPlayer({ name: 'Alice', identifiers: [LICENSE] });
  await first.decision;
  // The game crashed and the player connects again before the old client timed out.
  const again = server.connectPlayer({ name: 'Alice', identifiers: [LICENSE] });
  expect(await again.decision).toEqual({ admitted: true, id: 2 });
  expect(server.playerList().map((p) => p.id)).toEqual([1, 2]);
  // The old client goes on its own (here it quits; GameServer.cpp times it out otherwise).
  server.dropPlayer(1, 'Exiting');
  expect(a.eval<unknown[][]>('events').filter((e) => e[0] === 'dropped')).toEqual([
    ['dropped', 1, 'Exiting', '__cfx_internal:client', 2, 'Alice'],
  ]);
});
