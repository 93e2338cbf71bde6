import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const LICENSE = `license:${'a'.repeat(40)}`;
const IDS = [
  `license2:${'b'.repeat(40)}`,
  LICENSE,
  'discord:123456789012345678',
  'fivem:42',
  'steam:110000100000001',
  'ip:127.0.0.1',
];
let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

it('admits at once when nobody deferred; temp ids 65536+ then final ids from 1 with playerJoining(oldId)', async () => {
  const a = server.createScriptResource('a');
  a.eval(`joins = []; on('playerConnecting', (name) => { conn = [name, source]; });
    on('playerJoining', (old) => joins.push([source, old]));`);
  const c1 = server.connectPlayer({ name: 'Alice', identifiers: IDS });
  const c2 = server.connectPlayer({ name: 'Bob', identifiers: ['ip:1.2.3.4'] });
  expect([c1.tempId, c2.tempId]).toEqual([65536, 65537]);
  expect(await c1.decision).toEqual({ admitted: true, id: 1 });
  expect(await c2.decision).toEqual({ admitted: true, id: 2 });
  expect(a.eval('joins')).toEqual([
    [1, '65536'],
    [2, '65537'],
  ]);
  expect(a.eval('getPlayers()')).toEqual(['1', '2']);
});

it('waits for every deferring resource; done() admits; update messages are recorded', async () => {
  const a = server.createScriptResource('a');
  const b = server.createScriptResource('b');
  a.eval(`on('playerConnecting', (n, k, d) => { d.defer(); da = d; })`);
  b.eval(`on('playerConnecting', (n, k, d) => { d.defer(); db = d; })`);
  const c = server.connectPlayer({ name: 'A', identifiers: IDS });
  await server.nextTick();
  a.eval(`da.update('checking'); da.done()`);
  await server.nextTick();
  expect(c.completed).toBe(false);
  expect(c.updates).toEqual(['checking']);
  b.eval('db.done()');
  expect(await c.decision).toEqual({ admitted: true, id: 1 });
});

it('first rejection wins and later calls are ignored; done(undefined) is "Unknown error"', async () => {
  const a = server.createScriptResource('a');
  a.eval(`on('playerConnecting', (n, k, d) => { d.defer(); dd = d; })`);
  const c = server.connectPlayer({ name: 'A', identifiers: IDS });
  a.eval(`dd.done('not on roster'); dd.done('second'); dd.done()`);
  expect(await c.decision).toEqual({ admitted: false, reason: 'not on roster' });
  const u = server.connectPlayer({ name: 'B', identifiers: IDS });
  a.eval('dd.done(undefined)');
  expect(await u.decision).toEqual({ admitted: false, reason: 'Unknown error' });
});

it('defer must be synchronous: a later defer is ignored and the player was already admitted', async () => {
  const a = server.createScriptResource('a');
  a.eval(`on('playerConnecting', async (n, k, d) => { await null; d.defer(); })`);
  const c = server.connectPlayer({ name: 'A', identifiers: IDS });
  expect(await c.decision).toEqual({ admitted: true, id: 1 });
});

it('CancelEvent rejects with the setKickReason text or the default', async () => {
  const a = server.createScriptResource('a');
  a.eval(
    `on('playerConnecting', (n, setKickReason) => { if (n === 'K') setKickReason('go away'); CancelEvent(); })`,
  );
  expect(await server.connectPlayer({ name: 'K', identifiers: IDS }).decision).toEqual({
    admitted: false,
    reason: 'go away',
  });
  expect(await server.connectPlayer({ name: 'X', identifiers: IDS }).decision).toEqual({
    admitted: false,
    reason: 'Resource prevented connection.',
  });
});

it('an abandoned connection ignores a later done(); there is no deferral timeout', async () => {
  const a = server.createScriptResource('a');
  a.eval(
    `on('playerConnecting', (n, k, d) => { d.defer(); dd = d; }); on('playerJoining', () => { joined = true; })`,
  );
  const c = server.connectPlayer({ name: 'A', identifiers: IDS });
  for (let i = 0; i < 20; i++) await server.nextTick();
  expect(c.completed).toBe(false);
  c.abandon();
  a.eval('dd.done()');
  await server.nextTick();
  expect(await c.decision).toMatchObject({ admitted: false, abandoned: true });
  expect(a.eval('typeof joined')).toBe('undefined');
});

it('identifiers: GetPlayerIdentifierByType is a plain prefix match, first wins, null if none', async () => {
  const a = server.createScriptResource('a');
  const { id } = (await server.connectPlayer({ name: 'Alice', identifiers: IDS }).decision) as { id: number };
  expect(a.eval(`GetPlayerIdentifierByType(${id}, 'license')`)).toBe(IDS[0]);
  expect(a.eval(`GetPlayerIdentifierByType('${id}', 'license:')`)).toBe(LICENSE);
  expect(a.eval(`GetPlayerIdentifierByType(${id}, 'xbl')`)).toBeNull();
  expect(a.eval(`getPlayerIdentifiers(${id})`)).toEqual(IDS);
  expect(
    a.eval(`[GetNumPlayerIdentifiers(${id}), GetPlayerIdentifier(${id}, 2), GetPlayerName('${id}')]`),
  ).toEqual([6, 'discord:123456789012345678', 'Alice']);
});

it('playerDropped only for final ids; DropPlayer; ids are not reused while in use', async () => {
  const a = server.createScriptResource('a');
  a.eval(`drops = []; on('playerDropped', (reason, res) => drops.push([source, reason, res]));
    on('playerConnecting', (n, k, d) => { if (n === 'slow') { d.defer(); } })`);
  const one = (await server.connectPlayer({ name: 'A', identifiers: IDS }).decision) as { id: number };
  const slow = server.connectPlayer({ name: 'slow', identifiers: IDS });
  server.dropPlayer(slow.tempId, 'quit');
  expect(await slow.decision).toEqual({ admitted: false, reason: 'quit' });
  a.eval(`DropPlayer(${one.id}, 'kicked')`);
  expect(a.eval('drops')).toEqual([[1, 'kicked', 'a']]);
  const two = (await server.connectPlayer({ name: 'B', identifiers: IDS }).decision) as { id: number };
  expect(two.id).toBe(2);
});

it('IsPlayerAceAllowed follows add_ace / add_principal', async () => {
  const s = new FxServer({
    aces: [['group.admin', 'command.roster', 'allow']],
    principals: [[`identifier.${LICENSE}`, 'group.admin']],
  });
  await s.start();
  const a = s.createScriptResource('a');
  const { id } = (await s.connectPlayer({ name: 'A', identifiers: IDS }).decision) as { id: number };
  expect(a.eval(`IsPlayerAceAllowed(${id}, 'command.roster')`)).toBe(true);
  expect(a.eval(`IsPlayerAceAllowed(${id}, 'command.other')`)).toBe(false);
  s.stop();
});

// GameServer.cpp DropClientInternal triggers playerDropped before RemoveClient.
it('playerDropped fires while the name and identifiers are still readable', async () => {
  const a = server.createScriptResource('a');
  a.eval(
    `seen = []; on('playerDropped', (reason) => seen.push([reason, GetPlayerName(source), GetPlayerIdentifierByType(source, 'license:'), getPlayerIdentifiers(source).length]))`,
  );
  const { id } = (await server.connectPlayer({ name: 'Alice', identifiers: IDS }).decision) as { id: number };
  server.dropPlayer(id, 'Exiting');
  expect(a.eval('seen')).toEqual([['Exiting', 'Alice', LICENSE, IDS.length]]);
  expect(a.eval(`GetPlayerName(${id})`)).toBeNull();
  expect(server.playerList()).toEqual([]);
});

// PlayerScriptFunctions.cpp DROP_PLAYER: `if (!client->HasConnected()) return false;`
it('DropPlayer on a client that has not connected does nothing', async () => {
  const a = server.createScriptResource('a');
  a.eval(`drops = 0; on('playerDropped', () => drops++);
    on('playerConnecting', (n, k, d) => { d.defer(); dd = d; DropPlayer(source, 'kicked while connecting'); })`);
  const c = server.connectPlayer({ name: 'A', identifiers: IDS });
  a.eval(`DropPlayer(${c.tempId}, 'again')`);
  await server.nextTick();
  expect(c.completed).toBe(false);
  expect(a.eval(`GetPlayerName(${c.tempId})`)).toBe('A');
  a.eval('dd.done()');
  expect(await c.decision).toEqual({ admitted: true, id: 1 });
  expect(a.eval('drops')).toBe(0);
});

// GameServer.cpp fires playerDropped only for clients that connected (a final id); a client
// admitted by the deferrals that never loads never gets playerJoining either.
it('a client admitted that never loads gets no playerJoining and no playerDropped', async () => {
  const a = server.createScriptResource('a');
  a.eval(`events = []; on('playerJoining', () => events.push('joining')); on('playerDropped', () => events.push('dropped'));
    on('playerConnecting', (n, k, d) => { d.defer(); dd = d; })`);
  const ghost = server.connectPlayer({ name: 'Ghost', identifiers: IDS, loads: false });
  a.eval('dd.done()');
  expect(await ghost.admission).toBe(true);
  for (let i = 0; i < 3; i++) await server.nextTick();
  expect(a.eval('events')).toEqual([]);
  expect(server.playerList()).toEqual([]);
  expect(a.eval(`GetPlayerName(${ghost.tempId})`)).toBe('Ghost');
  let settled = false;
  void ghost.decision.then(() => (settled = true));
  // The server forgets the temp client in silence.
  server.dropPlayer(ghost.tempId, 'timed out');
  await server.nextTick();
  expect(a.eval('events')).toEqual([]);
  expect(a.eval(`GetPlayerName(${ghost.tempId})`)).toBeNull();
  expect(settled).toBe(false);
  // A normal client after it still loads and takes id 1.
  const next = server.connectPlayer({ name: 'B', identifiers: IDS });
  a.eval('dd.done()');
  expect(await next.decision).toEqual({ admitted: true, id: 1 });
  expect(a.eval('events')).toEqual(['joining']);
});
