// The ACL as FXServer keeps it. Sources: code/client/citicore/se/Security.cpp and Security.h
// (inheritance, dotted objects, deny, principal stack, add_ace/remove_ace/add_principal/
// remove_principal), citicore/console/Console.Commands.cpp (command.<name> for every command),
// citizen-scripting-core/src/ResourceScriptFunctions.cpp (EXECUTE_COMMAND, REGISTER_COMMAND,
// IS_ACE_ALLOWED, IS_PRINCIPAL_ACE_ALLOWED), citizen-server-impl PlayerScriptFunctions.cpp
// (IS_PLAYER_ACE_ALLOWED) and include/Client.h (a player's principals).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const LICENSE = `license:${'a'.repeat(40)}`;
const DISCORD = 'discord:123456789';

let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

const allowed = (principal: string, object: string) =>
  server
    .resource('probe')!
    .evaluate(`IsPrincipalAceAllowed(${JSON.stringify(principal)}, ${JSON.stringify(object)})`);

function console(...lines: string[]): void {
  for (const line of lines) server.executeCommand(line);
}

it('principals inherit from their parents, transitively; add_principal twice adds twice and remove_principal removes every copy (Security.cpp)', () => {
  server.createScriptResource('probe');
  console('add_ace group.admin command.kick allow', 'add_principal group.mod group.admin');
  console('add_principal identifier.license:x group.mod', 'add_principal identifier.license:x group.mod');
  expect(allowed('identifier.license:x', 'command.kick')).toBe(true);
  expect(allowed('group.admin', 'command.kick')).toBe(true);
  expect(allowed('group.user', 'command.kick')).toBe(false);
  console('remove_principal identifier.license:x group.mod');
  expect(allowed('identifier.license:x', 'command.kick')).toBe(false);
  // Security.h lowercases principals and objects.
  console('add_principal IDENTIFIER.License:X Group.Admin');
  expect(allowed('identifier.license:x', 'COMMAND.KICK')).toBe(true);
});

it('an ACE on `a` covers `a.b.c` but not `ab`; remove_ace takes only its own type (Security.cpp CheckPrivilege)', () => {
  server.createScriptResource('probe');
  console('add_ace group.a roster allow');
  expect(allowed('group.a', 'roster.rank.set')).toBe(true);
  expect(allowed('group.a', 'roster')).toBe(true);
  expect(allowed('group.a', 'rosterx')).toBe(false);
  console('add_ace group.a roster.rank deny');
  expect(allowed('group.a', 'roster.rank.set')).toBe(false);
  expect(allowed('group.a', 'roster.doctor')).toBe(true);
  console('remove_ace group.a roster.rank allow');
  expect(allowed('group.a', 'roster.rank.set')).toBe(false);
  console('remove_ace group.a roster.rank deny');
  expect(allowed('group.a', 'roster.rank.set')).toBe(true);
});

it("deny trumps allow within one principal's set (own, inherited, builtin.everyone), but not across a player's principals (LoopPrincipalStack)", async () => {
  const probe = server.createScriptResource('probe');
  console('add_ace group.admin vip allow', 'add_ace group.banned vip deny');
  console(
    'add_principal identifier.license:y group.admin',
    'add_principal identifier.license:y group.banned',
  );
  expect(allowed('identifier.license:y', 'vip')).toBe(false);
  expect(allowed('group.admin', 'vip')).toBe(true);
  // A player is a PrincipalSource: each principal is checked on its own, any one allowed is enough.
  console(
    `add_principal identifier.${LICENSE} group.admin`,
    `add_principal identifier.${DISCORD} group.banned`,
  );
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: [LICENSE, DISCORD] }).decision) as {
    id: number;
  };
  expect(probe.eval(`IsPlayerAceAllowed(${id}, 'vip')`)).toBe(true);
  // builtin.everyone is in every principal's set: its deny reaches all.
  console('add_ace builtin.everyone vip deny');
  expect(probe.eval(`IsPlayerAceAllowed(${id}, 'vip')`)).toBe(false);
  expect(probe.eval(`IsPlayerAceAllowed(999, 'vip')`)).toBe(false);
});

it("a player's principals are identifier.<each identifier> and player.<id>, the temp id while connecting (Client.h)", async () => {
  const probe = server.createScriptResource('probe');
  probe.eval(`seen = []; on('playerConnecting', () => seen.push(IsPlayerAceAllowed(source, 'early')))`);
  console(
    'add_ace player.65536 early allow',
    'add_ace player.1 late allow',
    `add_ace identifier.${DISCORD} id allow`,
  );
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: [LICENSE, DISCORD] }).decision) as {
    id: number;
  };
  expect(probe.eval('seen')).toEqual([true]);
  expect(id).toBe(1);
  expect(
    probe.eval(
      `[IsPlayerAceAllowed(1, 'late'), IsPlayerAceAllowed('1', 'id'), IsPlayerAceAllowed(1, 'early')]`,
    ),
  ).toEqual([true, true, false]);
});

it('IsAceAllowed checks whoever runs now: builtin.everyone in events and timers, the player in their command, resource.<name> in ExecuteCommand (ResourceScriptFunctions.cpp, Security.cpp)', async () => {
  const r = server.createScriptResource('r');
  r.eval(`
    seen = [];
    RegisterCommand('check', (src) => seen.push([src, IsAceAllowed('thing')]), false);
  `);
  console(
    'add_ace builtin.everyone open allow',
    'add_ace player.1 thing allow',
    'add_ace resource.r thing allow',
  );
  expect(r.eval(`[IsAceAllowed('open'), IsAceAllowed('thing')]`)).toEqual([true, false]);
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: [LICENSE] }).decision) as {
    id: number;
  };
  server.executeCommand('check', id);
  r.eval(`ExecuteCommand('check')`);
  // The console is system.console, which has `command` but not `thing`.
  server.executeCommand('check');
  expect(r.eval('seen')).toEqual([
    [id, true],
    [0, true],
    [0, false],
  ]);
});

it("ExecuteCommand runs as resource.<name>: a refused command prints FXServer's line and does nothing (Console.Commands.cpp)", () => {
  server.createScriptResource('probe');
  const a = server.createScriptResource('a');
  a.eval(`ExecuteCommand('add_principal identifier.license:x group.admin')`);
  expect(server.log.of('server')).toContain('Access denied for command add_principal.');
  console('add_ace group.admin command.kick allow', 'add_ace resource.a command.add_principal allow');
  a.eval(`ExecuteCommand('add_principal identifier.license:x group.admin')`);
  expect(allowed('identifier.license:x', 'command.kick')).toBe(true);
  a.eval(`ExecuteCommand('remove_principal identifier.license:x group.admin')`);
  expect(server.log.of('server')).toContain('Access denied for command remove_principal.');
  expect(allowed('identifier.license:x', 'command.kick')).toBe(true);
  // add_ace on its own principal is refused even with command.add_ace (Security.cpp isSelf).
  console('add_ace resource.a command.add_ace allow');
  a.eval(`ExecuteCommand('add_ace resource.a command allow')`);
  expect(server.log.of('server')).toContain('Changing ones own access is not permitted.');
  expect(allowed('resource.a', 'command.stop')).toBe(false);
  a.eval(`ExecuteCommand('add_ace group.x thing maybe'); ExecuteCommand('add_ace group.x thing')`);
  expect(server.log.of('server')).toContain("Access type needs to be 'allow' or 'deny'.");
  expect(server.log.of('server')).toContain('Argument count mismatch (passed 2, wanted 3)');
});

it("RegisterCommand: the owner may run it, unrestricted is everyone's, a taken name swaps only the handler, stop takes both ACEs (ResourceScriptFunctions.cpp)", async () => {
  const owner = server.createScriptResource('owner');
  const other = server.createScriptResource('other');
  owner.eval(
    `calls = []; RegisterCommand('open', () => calls.push('open'), false); RegisterCommand('shut', () => calls.push('shut'), true)`,
  );
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: [LICENSE] }).decision) as {
    id: number;
  };
  server.executeCommand('open', id);
  server.executeCommand('shut', id);
  owner.eval(`ExecuteCommand('shut')`);
  other.eval(`ExecuteCommand('shut')`);
  expect(owner.eval('calls')).toEqual(['open', 'shut']);
  expect(server.log.of('server').filter((l) => l === 'Access denied for command shut.')).toHaveLength(2);
  // A player's unknown command prints nothing; the console's does.
  server.executeCommand('nothing', id);
  expect(server.log.of('server')).not.toContain('No such command nothing.');
  // Registering a taken name: the new handler answers, the command stays unrestricted and the owner's.
  other.eval(`RegisterCommand('open', () => 0, true)`);
  server.executeCommand('open', id);
  expect(owner.eval('calls')).toEqual(['open', 'shut']);
  server.executeCommand('add_ace builtin.everyone command.shut allow');
  server.stopResource('owner');
  server.createScriptResource('probe');
  expect(allowed('builtin.everyone', 'command.shut')).toBe(false);
  expect(allowed('resource.owner', 'command.open')).toBe(false);
});

it('server.cfg lines given to the emulator run as console commands at start, comments skipped (Console.cpp Tokenize)', async () => {
  const s = new FxServer({
    serverCfg: [
      '# roster grants',
      'add_ace group.admin command.kick allow // admins kick',
      '',
      'add_principal identifier.license:x group.admin',
      'add_ace resource.roster command.add_principal allow',
    ].join('\n'),
    aces: [['group.mod', 'command.warn']],
    principals: [['identifier.license:y', 'group.mod']],
  });
  await s.start();
  const probe = s.createScriptResource('probe');
  const check = (p: string, o: string) => probe.eval(`IsPrincipalAceAllowed('${p}', '${o}')`);
  expect(check('identifier.license:x', 'command.kick')).toBe(true);
  expect(check('resource.roster', 'command.add_principal')).toBe(true);
  expect(check('identifier.license:y', 'command.warn')).toBe(true);
  expect(s.log.of('server')).toEqual([]);
  s.stop();
});

it("a client's net event runs in that client's principal scope (GameServer.cpp ProcessPacket, WithPacketHandler.h)", async () => {
  const r = server.createScriptResource('r');
  console(`add_ace identifier.${LICENSE} roster.manage allow`);
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: [LICENSE] }).decision) as {
    id: number;
  };
  const other = (await server.connectPlayer({ name: 'Q', identifiers: [DISCORD] }).decision) as {
    id: number;
  };
  r.eval(`seen = []; onNet('ask', () => seen.push([source, IsAceAllowed('roster.manage')]))`);
  server.emitNet('ask', id);
  server.emitNet('ask', other.id);
  expect(r.eval('seen')).toEqual([
    [id, true],
    [other.id, false],
  ]);
  // Once the event is over the scope is gone: a resource's own code is builtin.everyone again.
  expect(r.eval(`IsAceAllowed('roster.manage')`)).toBe(false);
});

it('own-access refusal compares the argument as typed; builtin.everyone parents reach only an empty stack (Security.cpp)', () => {
  server.createScriptResource('probe');
  console('add_ace system.console thing allow');
  expect(server.log.of('server')).toContain('Changing ones own access is not permitted.');
  expect(allowed('system.console', 'thing')).toBe(false);
  // `principal == principalRef.GetIdentifier()`: the stack is lower-cased, the argument is not.
  console('add_ace SYSTEM.CONSOLE thing allow');
  expect(allowed('system.console', 'thing')).toBe(true);
  // AddPrincipals starts from the principal checked: builtin.everyone's own parents count only
  // when builtin.everyone itself is checked (an empty stack), not for another principal.
  console('add_principal builtin.everyone group.open', 'add_ace group.open door allow');
  const r = server.resource('probe')!;
  expect(r.evaluate(`IsAceAllowed('door')`)).toBe(true);
  expect(allowed('player.7', 'door')).toBe(false);
});

it("ExecuteCommand inside a client's net event adds resource.<name> on top of the client's scope, so the player's rights count too (ResourceScriptFunctions.cpp ScopedPrincipal, no reset)", async () => {
  server.createScriptResource('probe');
  const r = server.createScriptResource('r');
  console(`add_ace identifier.${LICENSE} command.add_principal allow`, 'add_ace group.admin door allow');
  const admin = (await server.connectPlayer({ name: 'A', identifiers: [LICENSE] }).decision) as {
    id: number;
  };
  const user = (await server.connectPlayer({ name: 'U', identifiers: [DISCORD] }).decision) as { id: number };
  r.eval(`onNet('promote', (who) => ExecuteCommand('add_principal ' + who + ' group.admin'))`);
  server.emitNet('promote', user.id, 'group.user');
  expect(server.log.of('server')).toContain('Access denied for command add_principal.');
  expect(allowed('group.user', 'door')).toBe(false);
  server.emitNet('promote', admin.id, 'group.user');
  expect(allowed('group.user', 'door')).toBe(true);
  // Outside the event the resource is alone on the stack again and refused.
  r.eval(`ExecuteCommand('add_principal group.other group.admin')`);
  expect(allowed('group.other', 'door')).toBe(false);
});
