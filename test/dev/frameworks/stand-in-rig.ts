import path from 'node:path';
import { FxServer } from '../../../dev/emulator';

type Fn = (...args: unknown[]) => unknown;
const repo = path.resolve(import.meta.dirname, '../../..');

/**
 * One framework stand-in on its own in the emulator, called from a JS resource as job sync calls
 * it. Lua stand-ins load from dev/frameworks; ox_core's from the build (npm run build).
 */
export async function standIn(resource: string, options: { lua: boolean; convars?: Record<string, string> }) {
  const server = new FxServer({ convars: options.convars ?? {} });
  await server.start();
  const root = options.lua
    ? path.join(repo, 'dev/frameworks', resource)
    : path.join(repo, '.build/dev/frameworks', resource);
  if (options.lua) await server.startLuaResource(resource, root);
  else server.startResource(resource, root);
  const caller = server.createScriptResource('caller');
  const events: [string, unknown[]][] = [];
  const ex = (name = resource) => (caller.exports as Record<string, Record<string, Fn>>)[name]!;
  const join = async (license: string) => {
    const decision = await server.connectPlayer({ name: 'P', identifiers: [license] }).decision;
    if (!decision.admitted) throw new Error('not admitted');
    return Number(decision.id);
  };
  const listen = (...names: string[]) => {
    for (const name of names) caller.on(name, (...args: unknown[]) => events.push([name, args]));
  };
  const frames = async (n: number) => {
    for (let i = 0; i < n; i++) await server.nextTick();
  };
  return { server, caller, ex, join, listen, events, frames };
}

export const LICENSE = `license:${'a'.repeat(40)}`;
