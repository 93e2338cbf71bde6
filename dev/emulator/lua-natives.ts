import type { JsRuntime } from './js-runtime';

/**
 * The server natives a Lua resource gets as globals here (FXServer's natives_server.lua defines
 * them all; these are the ones the framework stand-ins and Lua tests use). Each is the JS
 * resource's native of the same name (natives.ts), reached with its arguments packed as msgpack
 * and its one value packed back: a Lua function argument (RegisterCommand's handler) crosses as a
 * function reference, as through Citizen.InvokeNative's `_mfr`.
 */
export const LUA_NATIVES: readonly string[] = [
  'GetConvar',
  'GetConvarInt',
  'GetResourceState',
  'GetInvokingResource',
  'GetPlayerName',
  'GetPlayerIdentifierByType',
  'GetNumPlayerIdentifiers',
  'GetPlayerIdentifier',
  'IsPlayerAceAllowed',
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
  const values = runtime.packer.unpack(args) as unknown[];
  return runtime.packer.pack([(native as (...a: unknown[]) => unknown)(...values)]);
}

/** `Wait(ms)`: settles on the resource's own timers (scheduler.lua resumes on a later tick). */
export function sleepOn(runtime: JsRuntime, ms: number): Promise<void> {
  const setTimer = runtime.realm.global.setTimeout as (fn: () => void, ms: number) => unknown;
  return new Promise((resolve) => void setTimer(() => resolve(), Math.max(0, Number(ms) || 0)));
}
