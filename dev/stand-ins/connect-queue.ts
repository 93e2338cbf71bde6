import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FxServer } from '../emulator';
import type { LuaResource } from '../emulator/lua-resource';

/** Beside this file in dev/stand-ins or (copied by dev/build.mjs) in .build/dev. */
const source = () => readFileSync(path.join(import.meta.dirname, 'connectqueue.lua'));

/** What the stand-in recorded when it placed a player: the priority it read then (0 for none). */
export interface Placement {
  id: string;
  name: string;
  power: number;
  position: number;
}

/**
 * Starts the ConnectQueue stand-in (connectqueue.lua) as its own Lua resource, `connectqueue`,
 * the name other resources look for.
 */
export async function startConnectQueue(server: FxServer): Promise<LuaResource> {
  return server.startLuaCode('connectqueue', source().toString('utf8'));
}

/** Every placement so far, read through the stand-in's `Placements` export. */
export async function placements(lua: LuaResource): Promise<Placement[]> {
  const list = await lua.run('return exports.connectqueue:Placements()');
  return Array.isArray(list) ? (list as Placement[]) : [];
}

/** The resource name passed with each `OnJoin` callback the stand-in holds, in order. */
export async function joinCallbacks(lua: LuaResource): Promise<string[]> {
  const list = await lua.run('return exports.connectqueue:JoinCallbacks()');
  return Array.isArray(list) ? (list as string[]) : [];
}
