import {
  decorateFunction,
  LUA_REGISTRYINDEX,
  LuaMultiReturn,
  LuaRawResult,
  type LuaThread,
  type LuaWasm,
} from 'wasmoon';
import type { Kernel } from './kernel';
import { pushLuaBytes, readLuaBytes } from './lua-bytes';
import type { LuaCoroutines } from './lua-coroutines';
import { LUA_NATIVES } from './lua-natives';
import type { LuaPacker } from './lua-pack';
import { unpackToLua } from './lua-unpack';

type Raw = (thread: LuaThread, argc: number) => LuaRawResult;
/** A host function that works on the Lua stack itself (wasmoon converts nothing). */
const raw = (fn: Raw) => decorateFunction(fn, { receiveThread: true, receiveArgsQuantity: true });

/** Registry slots of what lua-scheduler.lua hands over in `host.setup`. */
export interface LuaRoutines {
  readonly funcrefMt: number;
  readonly onEvent: number;
  readonly callRef: number;
}

export interface LuaHostDeps {
  readonly name: string;
  readonly kernel: Kernel;
  readonly lua: LuaWasm;
  readonly packer: LuaPacker;
  readonly coroutines: LuaCoroutines;
  pushFuncRef(L: number, ref: string): void;
  log(text: string): void;
  registerEvent(name: string): void;
  setup(routines: LuaRoutines): void;
  /** Citizen.CreateThread: the registry slot of the function, run after the current chunk. */
  createThread(slot: number): void;
  /** A server native by name: its arguments and its one value cross as msgpack (lua-natives.ts). */
  native(name: string, args: Uint8Array): Uint8Array;
  /** Settles after `ms` on the resource's own timers (so on server frames, and fake time). */
  sleep(ms: number): Promise<void>;
}

/**
 * What lua-scheduler.lua gets as `host`: the natives scheduler.lua relies on and the msgpack
 * library (lua-pack.ts, lua-unpack.ts). Bytes stay bytes: every payload is a Lua string.
 */
export function luaHostFunctions(deps: LuaHostDeps): Record<string, unknown> {
  const { lua, kernel, packer } = deps;
  const bytesResult = (L: number, bytes: Uint8Array) => {
    pushLuaBytes(lua, L, bytes);
    return new LuaRawResult(1);
  };
  const slot = (L: number, index: number) => {
    lua.lua_pushvalue(L, index);
    return lua.luaL_ref(L, LUA_REGISTRYINDEX);
  };
  return {
    pack: raw((t, argc) => {
      if (argc === 0) throw new Error('MessagePack pack needs input');
      return bytesResult(t.address, packer.pack(t.address, 1, argc));
    }),
    pack_args: raw((t, argc) => bytesResult(t.address, packer.packArgs(t.address, 1, argc))),
    unpack: raw((t) => {
      const bytes = readLuaBytes(lua, t.address, 1);
      return new LuaRawResult(unpackToLua(lua, t.address, bytes, { pushFuncRef: deps.pushFuncRef }));
    }),
    // TriggerEventInternal: synchronous, through the server's event bus.
    trigger: raw((t) => {
      const name = lua.lua_tolstring(t.address, 1, null);
      kernel.bus.trigger(name, readLuaBytes(lua, t.address, 2), '', deps.name);
      return new LuaRawResult(0);
    }),
    // LuaScriptRuntime.cpp Lua_InvokeFunctionReference: a call that fails is a Lua error with
    // this text (raised by the caller in lua-scheduler.lua).
    invoke: raw((t) => {
      const L = t.address;
      const ref = lua.lua_tolstring(L, 1, null);
      try {
        return bytesResult(L, kernel.refs.invoke(ref, readLuaBytes(lua, L, 2), deps.name));
      } catch (error) {
        lua.lua_pushnil(L);
        lua.lua_pushstring(L, `Execution of function reference in script host failed: ${messageOf(error)}`);
        return new LuaRawResult(2);
      }
    }),
    // Citizen.CreateThreadNow(fn, name): runs fn now in a coroutine; true when it had to wait.
    thread_now: raw((t) => {
      const where = lua.lua_tolstring(t.address, 2, null);
      lua.lua_settop(t.address, 1);
      const { waited, done } = deps.coroutines.spawn((thread) => {
        lua.lua_xmove(t.address, thread.address, 1);
        return 0;
      }, where);
      done.catch(() => {}); // printed by the coroutine runner
      lua.lua_pushboolean(t.address, waited ? 1 : 0);
      return new LuaRawResult(1);
    }),
    // Citizen.Await's wait: a host promise the coroutine yields on, and what settles it.
    new_wait: () => {
      let wake = () => {};
      const wait = new Promise<void>((resolve) => {
        wake = () => resolve();
      });
      return LuaMultiReturn.of<unknown>(wait, wake);
    },
    create_thread: raw((t) => {
      deps.createThread(slot(t.address, 1));
      return new LuaRawResult(0);
    }),
    native: raw((t) => {
      const name = lua.lua_tolstring(t.address, 1, null);
      return bytesResult(t.address, deps.native(name, readLuaBytes(lua, t.address, 2)));
    }),
    sleep: (ms: number) => deps.sleep(Number(ms) || 0),
    native_list: LUA_NATIVES.join(','),
    register_event: (name: string) => deps.registerEvent(name),
    release: (ref: string) => kernel.refs.release(ref),
    trace: (text: string) => deps.log(text.replace(/\n$/, '')),
    setup: raw((t) => {
      deps.setup({ funcrefMt: slot(t.address, 1), onEvent: slot(t.address, 2), callRef: slot(t.address, 3) });
      return new LuaRawResult(0);
    }),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Object && 'message' in error ? String(error.message) : String(error);
}
