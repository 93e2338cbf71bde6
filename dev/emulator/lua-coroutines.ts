import { LUA_REGISTRYINDEX, type LuaGlobal, LuaReturn, type LuaThread, LuaType } from 'wasmoon';
import { readLuaBytes } from './lua-bytes';

/**
 * How the emulator runs Lua code: each piece in its own coroutine (scheduler.lua runs files,
 * handlers, threads and ref calls in CreateThreadNow), and the scheduler's routines (event
 * routine, call-ref routine) at once on a fresh Lua thread.
 */
export class LuaCoroutines {
  constructor(
    private readonly global: LuaGlobal,
    private readonly failed: (where: string, error: unknown) => void,
  ) {}

  /**
   * A coroutine: `load` puts the function (and arguments) on it, its first part runs now and an
   * await resumes it later. `waited` tells whether it yielded (CreateThreadNow's answer). The
   * thread is anchored in the registry while it lives. A Lua error goes to `failed` and rejects
   * `done`.
   */
  spawn(load: (thread: LuaThread) => number, where: string): { waited: boolean; done: Promise<unknown> } {
    const g = this.global;
    const thread = g.newThread();
    const anchor = g.lua.luaL_ref(g.address, LUA_REGISTRYINDEX);
    const release = () => g.lua.luaL_unref(g.address, LUA_REGISTRYINDEX, anchor);
    let argc: number;
    try {
      argc = load(thread);
    } catch (error) {
      release();
      return { waited: false, done: Promise.reject(error) };
    }
    // run() resumes synchronously before its first await, so the status tells at once.
    const running = thread.run(argc);
    const waited = g.lua.lua_status(thread.address) === LuaReturn.Yield;
    const done = running.then(
      (values) => {
        release();
        return values[0];
      },
      (error: unknown) => {
        release();
        this.failed(where, error);
        throw error;
      },
    );
    return { waited, done };
  }

  /**
   * Calls the function in registry slot `routine` at once on a fresh Lua thread and gives the
   * bytes it returns (empty for no string). The routines never yield: what may wait runs in its
   * own coroutine.
   */
  call(routine: number, pushArgs: (L: number) => number): Uint8Array {
    const g = this.global;
    const { lua } = g;
    const L = lua.lua_newthread(g.address);
    const anchor = lua.luaL_ref(g.address, LUA_REGISTRYINDEX);
    try {
      lua.lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(routine));
      const argc = pushArgs(L);
      if (lua.lua_pcallk(L, argc, 1, 0, 0, null) !== LuaReturn.Ok) {
        throw new Error(lua.lua_tolstring(L, -1, null));
      }
      return lua.lua_type(L, -1) === LuaType.String ? readLuaBytes(lua, L, -1) : new Uint8Array();
    } finally {
      lua.luaL_unref(g.address, LUA_REGISTRYINDEX, anchor);
    }
  }
}
