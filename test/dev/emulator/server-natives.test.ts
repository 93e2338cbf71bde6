import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

let server: FxServer;
beforeEach(async () => {
  server = new FxServer({
    convars: { roster_api_key: 'secret', n: ' 12abc', t: 'TRUE', f: 'false', bad: 'abc', big: '99999999999' },
    convarPermissions: [['roster', 'roster_api_key']],
  });
  await server.start();
});
afterEach(() => server.stop());

it('GetConvar / GetConvarInt parse as FXServer does', () => {
  const a = server.createScriptResource('a');
  expect(
    a.eval(`[GetConvar('missing', 'def'), GetConvarInt('n', 0), GetConvarInt('t', 0), GetConvarInt('f', 5),
    GetConvarInt('bad', 7), GetConvarInt('big', 3), GetConvarInt('missing', 9)]`),
  ).toEqual(['def', 12, 1, 0, 7, 3, 9]);
});

it('a convar with a permission entry is read only by listed resources', () => {
  const other = server.createScriptResource('other');
  const roster = server.createScriptResource('roster');
  expect(other.eval(`GetConvar('roster_api_key', '')`)).toBe('');
  expect(roster.eval(`GetConvar('roster_api_key', '')`)).toBe('secret');
  server.executeCommand('add_convar_permission other read roster_api_key');
  expect(other.eval(`GetConvar('roster_api_key', '')`)).toBe('secret');
});

it('resource files: load, save own only, null when missing or escaping', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'emu-res-'));
  writeFileSync(path.join(root, 'config.json'), '{"a":1}');
  const a = server.createScriptResource('a', root);
  server.createScriptResource('b', root);
  expect(a.eval(`LoadResourceFile('a', 'config.json')`)).toBe('{"a":1}');
  expect(a.eval(`LoadResourceFile('a', 'nope.json')`)).toBeNull();
  expect(a.eval(`LoadResourceFile('a', '../../etc/passwd')`)).toBeNull();
  expect(a.eval(`SaveResourceFile('a', 'out.txt', 'hello world', -1)`)).toBe(true);
  expect(readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('hello world');
  expect(a.eval(`SaveResourceFile('a', 'short.txt', 'hello world', 5)`)).toBe(true);
  expect(readFileSync(path.join(root, 'short.txt'), 'utf8')).toBe('hello');
  expect(a.eval(`SaveResourceFile('b', 'x.txt', 'no', -1)`)).toBe(false);
  expect(a.eval(`SaveResourceFile('a', '../x.txt', 'no', -1)`)).toBe(false);
  expect(
    a.eval(
      `[GetCurrentResourceName(), GetResourcePath('a') === ${JSON.stringify(root)}, GetResourceState('a'), GetResourceState('zzz')]`,
    ),
  ).toEqual(['a', true, 'started', 'missing']);
});

it('RegisterCommand: (source, args, raw), console is 0, restricted needs ACE command.<name>', async () => {
  const a = server.createScriptResource('a');
  a.eval(`calls = []; RegisterCommand('roster', (src, args, raw) => calls.push([src, args, raw]), true)`);
  server.executeCommand('roster status "two words"');
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: ['license:x'] }).decision) as {
    id: number;
  };
  server.executeCommand('roster status', id);
  expect(a.eval('calls')).toEqual([[0, ['status', 'two words'], 'roster status "two words"']]);
  expect(server.log.of('server')).toContain('Access denied for command roster.');
  server.executeCommand(`add_ace player.${id} command.roster allow`);
  server.executeCommand('roster status', id);
  expect(a.eval('calls.length')).toBe(2);
  a.eval(`ExecuteCommand('roster doctor')`);
  expect(a.eval('calls[2]')).toEqual([0, ['doctor'], 'roster doctor']);
});

it('ExecuteCommand runs as resource.<name>: add_principal and remove_principal need their ACEs', () => {
  const a = server.createScriptResource('a');
  a.eval(`ExecuteCommand('add_principal identifier.license:x group.admin')`);
  expect(server.log.of('server')).toContain('Access denied for command add_principal.');
  expect(a.eval(`IsPrincipalAceAllowed('identifier.license:x', 'group.admin')`)).toBe(false);
  server.executeCommand('add_ace group.admin command.kick allow');
  server.executeCommand('add_ace resource.a command.add_principal allow');
  a.eval(`ExecuteCommand('add_principal identifier.license:x group.admin')`);
  expect(a.eval(`IsPrincipalAceAllowed('identifier.license:x', 'command.kick')`)).toBe(true);
  // Only add_principal was allowed: the removal is refused and the link stays.
  a.eval(`ExecuteCommand('remove_principal identifier.license:x group.admin')`);
  expect(server.log.of('server').filter((l) => l.includes('remove_principal'))).toHaveLength(1);
  expect(a.eval(`IsPrincipalAceAllowed('identifier.license:x', 'command.kick')`)).toBe(true);
  server.executeCommand('add_ace resource.a command.remove_principal allow');
  a.eval(`ExecuteCommand('remove_principal identifier.license:x group.admin')`);
  expect(a.eval(`IsPrincipalAceAllowed('identifier.license:x', 'command.kick')`)).toBe(false);
  // Another resource's unrestricted command is everyone's; its restricted one is not.
  const b = server.createScriptResource('b');
  b.eval(
    `calls = []; RegisterCommand('open', () => calls.push(1), false); RegisterCommand('shut', () => calls.push(2), true)`,
  );
  a.eval(`ExecuteCommand('open'); ExecuteCommand('shut')`);
  expect(b.eval('calls')).toEqual([1]);
  expect(server.log.of('server')).toContain('Access denied for command shut.');
});

it('state bags: values copied through msgpack, null deletes, temp-id bags lose writes', async () => {
  const a = server.createScriptResource('a');
  const b = server.createScriptResource('b');
  a.eval(`on('playerConnecting', () => { Player(source).state.set('early', 1, true); });`);
  const { id } = (await server.connectPlayer({ name: 'P', identifiers: ['license:x'] }).decision) as {
    id: number;
  };
  a.eval(`m = { u: undefined, d: new Date() }; Player(${id}).state.set('roster', m, true); m.extra = 1;
    GlobalState.mode = 'on'`);
  expect(b.eval(`Player('${id}').state.roster`)).toEqual({ u: null, d: {} });
  expect(b.eval(`Player(${id}).state.early`)).toBeNull();
  expect(b.eval(`GlobalState.mode`)).toBe('on');
  expect(b.eval(`GlobalState.missing`)).toBeNull();
  a.eval(`GlobalState.mode = null`);
  expect(b.eval(`GetStateBagKeys('global')`)).toEqual([]);
  expect(server.bags.writes.find((w) => w.key === 'roster')?.replicated).toBe(true);
});
