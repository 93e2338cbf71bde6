// Convars as FXServer keeps them: names are case-insensitive (citicore/console/
// Console.Variables.h, a map with IgnoreCaseLess), while add_convar_permission is checked
// against the exact name a script asks for (citizen-scripting-core/src/ConsoleScriptFunctions.cpp,
// CanReadConVar).
import { afterEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

let server: FxServer;
afterEach(() => server.stop());

it('set, setr and sets store one convar whatever the case, and GetConvar* finds it in any case', () => {
  server = new FxServer();
  const reader = server.createScriptResource('reader');
  server.executeCommand('set ROSTER_API_KEY x');
  expect(reader.eval(`GetConvar('roster_api_key', '')`)).toBe('x');
  expect(reader.eval(`GetConvar('Roster_Api_Key', '')`)).toBe('x');
  server.executeCommand('setr roster_api_key y');
  expect(reader.eval(`GetConvar('ROSTER_API_KEY', '')`)).toBe('y');
  server.executeCommand('sets Roster_Count 12');
  expect(reader.eval(`[GetConvarInt('roster_count', 0), GetConvarFloat('ROSTER_COUNT', 0)]`)).toEqual([
    12, 12,
  ]);
  expect(reader.eval(`GetConvarBool('ROSTER_count', false)`)).toBe(true);
});

it('a read permission refuses the exact name to other resources; the same name in another case reads the key', () => {
  server = new FxServer({
    convars: { roster_api_key: 'secret' },
    convarPermissions: [['roster', 'roster_api_key']],
  });
  const roster = server.createScriptResource('roster');
  const other = server.createScriptResource('other');
  expect(other.eval(`GetConvar('roster_api_key', 'default')`)).toBe('default');
  expect(other.eval(`GetConvar('ROSTER_API_KEY', 'default')`)).toBe('secret');
  expect(other.eval(`GetConvar('Roster_Api_Key', 'default')`)).toBe('secret');
  expect(roster.eval(`GetConvar('roster_api_key', '')`)).toBe('secret');
  expect(roster.eval(`GetConvar('ROSTER_API_KEY', '')`)).toBe('secret');
});

it('the permission is kept exactly as typed: another case of the convar restricts only that spelling', () => {
  server = new FxServer({ convars: { roster_api_key: 'secret' } });
  server.executeCommand('add_convar_permission roster read ROSTER_API_KEY');
  const roster = server.createScriptResource('roster');
  const other = server.createScriptResource('other');
  expect(other.eval(`GetConvar('roster_api_key', '')`)).toBe('secret');
  expect(other.eval(`GetConvar('ROSTER_API_KEY', '')`)).toBe('');
  expect(roster.eval(`GetConvar('ROSTER_API_KEY', '')`)).toBe('secret');
});

it('the resource name must match exactly too: a grant to "Roster" does not let "roster" read', () => {
  server = new FxServer({ convars: { roster_api_key: 'secret' } });
  server.executeCommand('add_convar_permission Roster read roster_api_key');
  const roster = server.createScriptResource('roster');
  expect(roster.eval(`GetConvar('roster_api_key', 'default')`)).toBe('default');
  expect(roster.eval(`GetConvarInt('roster_api_key', 7)`)).toBe(7);
});

it('set and add_convar_permission take exactly their arguments; an operation other than "read" does nothing', () => {
  server = new FxServer({ convars: { k: 'v' } });
  server.executeCommand('set only_name');
  server.executeCommand('add_convar_permission roster read');
  server.executeCommand('add_convar_permission roster READ k');
  expect(server.log.of('server')).toEqual([
    'Argument count mismatch (passed 1, wanted 2)',
    'Argument count mismatch (passed 2, wanted 3)',
  ]);
  const other = server.createScriptResource('other');
  expect(other.eval(`GetConvar('only_name', 'none')`)).toBe('none');
  expect(other.eval(`GetConvar('k', '')`)).toBe('v');
});
