import type { JsRuntime } from './js-runtime';

/**
 * The server natives a Lua resource gets as globals here (FXServer's natives_server.lua defines
 * them all; these are the ones the framework stand-ins and Lua tests use). Each is the JS
 * resource's native of the same name (natives.ts), reached with its arguments packed as msgpack
 * and its one value packed back: a Lua function argument (RegisterCommand's handler) crosses as a
 * function reference, as through Citizen.InvokeNative's `_mfr`.
 */
export const LUA_NATIVES: readonly string[] = [
  'IsDuplicityVersion',
  'GetConvar',
  'GetConvarInt',
  'GetResourceState',
  'GetInvokingResource',
  'CancelEvent',
  'WasEventCanceled',
  'GetNumPlayerIndices',
  'GetPlayerFromIndex',
  'GetPlayerName',
  'GetPlayerEndpoint',
  'GetPlayerLastMsg',
  'GetPlayerIdentifierByType',
  'GetNumPlayerIdentifiers',
  'GetPlayerIdentifier',
  'IsPlayerAceAllowed',
  'DropPlayer',
  'ExecuteCommand',
  'RegisterCommand',
  'TriggerClientEvent',
];

/** Calls the runtime's native `name` with packed `args`; its value comes back packed in a list. */
export function callNative(runtime: JsRuntime, name: string, args: Uint8Array): Uint8Array {
  const native = runtime.realm.global[name];
  if (!LUA_NATIVES.includes(name) || typeof native !== 'function') {
    throw new Error(`native ${name} is not emulated for Lua`);
  }
  const unpacked = runtime.packer.unpack(args);
  const value = (native as (...a: unknown[]) => unknown)(...(Array.isArray(unpacked) ? unpacked : []));
  return runtime.packer.pack([value === undefined ? null : value]);
}
