import { LuaType, type LuaWasm } from 'wasmoon';
import { readLuaBytes } from './lua-bytes';
import { EXT_FUNCREF } from './msgpack-codec';
import { MsgpackWriter } from './msgpack-writer';

const EXT_LOCALFUNCREF = 11;
/** lua_cmsgpack.h MP_MAX_NESTING; FXServer builds without LUACMSGPACK_ERROR_NESTING. */
const MAX_NESTING = 16;

export interface LuaPackHooks {
  /** A new function reference for the function or funcref table at `index` (MakeFunctionReference). */
  refFor(L: number, index: number): string;
}

/**
 * Lua values packed as FXServer's Lua runtime packs them: lua-cmsgpack (citizenfx/lua-cmsgpack,
 * branch grit: src/lua_cmsgpack.h `lua_pack_any`, src/lua_cmsgpack.c `mp_table_is_an_array`) with
 * the options scheduler.lua sets (`string_compat`, `unsigned`, `without_hole`,
 * `empty_table_as_array`) on a 64-bit build (numbers that are not integers as float64):
 *
 * - an integer as the smallest msgpack integer, a float as float64 even when whole (3.0);
 * - a string as v4 raw bytes;
 * - a table whose keys are exactly 1..n as an array (so `{}` is an empty array); any other table
 *   (a hole, key 0, a string key) as a map with its keys as they are; a table 16 levels down as nil;
 * - a function, or a funcref table (metatable `__ext` 10), as ext 10 with a new reference
 *   (scheduler.lua `funcref_mt.__pack`, `msgpack.settype("function", EXT_FUNCREF)`);
 * - userdata and threads are an error.
 */
export class LuaPacker {
  constructor(
    private readonly lua: LuaWasm,
    private readonly hooks: LuaPackHooks,
  ) {}

  /** `msgpack.pack(...)`: each value one after the other. */
  pack(L: number, first: number, last: number): Uint8Array {
    const out = new MsgpackWriter();
    for (let i = first; i <= last; i++) this.any(L, out, i, 0);
    return out.bytes();
  }

  /**
   * `msgpack.pack_args(...)`: the values as one array of exactly their count, nils included
   * (fivem commit bc042c7a1 "nil event parameters" brought it in so a nil argument keeps its
   * place, where packing `{...}` made a map). Each value counts as top level here (UNCONFIRMED:
   * the lua-cmsgpack version that added pack_args is not readable).
   */
  packArgs(L: number, first: number, last: number): Uint8Array {
    const out = new MsgpackWriter();
    out.array(Math.max(0, last - first + 1));
    for (let i = first; i <= last; i++) this.any(L, out, i, 0);
    return out.bytes();
  }

  private any(L: number, out: MsgpackWriter, index: number, level: number): void {
    const lua = this.lua;
    const at = lua.lua_absindex(L, index);
    const type = lua.lua_type(L, at);
    switch (type) {
      case LuaType.Nil:
        out.nil();
        return;
      case LuaType.Boolean:
        out.boolean(lua.lua_toboolean(L, at) !== 0);
        return;
      case LuaType.Number:
        if (lua.lua_isinteger(L, at)) out.integer(BigInt(lua.lua_tointegerx(L, at, null)));
        else out.double(lua.lua_tonumberx(L, at, null));
        return;
      case LuaType.String:
        out.raw(readLuaBytes(lua, L, at));
        return;
      case LuaType.Table:
        if (level >= MAX_NESTING) out.nil();
        else this.table(L, out, at, level);
        return;
      case LuaType.Function:
        out.ext(EXT_FUNCREF, new TextEncoder().encode(this.hooks.refFor(L, at)));
        return;
      case LuaType.LightUserdata:
        out.integer(BigInt(lua.lua_touserdata(L, at) >>> 0));
        return;
      default:
        throw new Error(`type <${lua.lua_typename(L, type)}> cannot be msgpack'd`);
    }
  }

  private table(L: number, out: MsgpackWriter, at: number, level: number): void {
    const lua = this.lua;
    lua.luaL_checkstack(L, 4, null);
    const ext = this.extType(L, at);
    if (ext === EXT_FUNCREF || ext === EXT_LOCALFUNCREF) {
      lua.lua_getfield(L, at, '__cfx_functionReference');
      const isRef = lua.lua_type(L, -1) === LuaType.String;
      lua.lua_settop(L, -2);
      if (!isRef) throw new Error(`Unknown funcref type: ${ext} table`);
      out.ext(EXT_FUNCREF, new TextEncoder().encode(this.hooks.refFor(L, at)));
      return;
    }
    // Other extension types (Entity/Player objects, user extensions) are not emulated.
    if (ext !== undefined) throw new Error('msgpack extension type: not registered!');
    const length = this.arrayLength(L, at);
    if (length !== undefined) {
      out.array(length);
      for (let i = 1; i <= length; i++) {
        lua.lua_rawgeti(L, at, BigInt(i));
        this.any(L, out, -1, level + 1);
        lua.lua_settop(L, -2);
      }
      return;
    }
    let size = 0;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, at) !== 0) {
      size++;
      lua.lua_settop(L, -2);
    }
    out.map(size);
    lua.lua_pushnil(L);
    while (lua.lua_next(L, at) !== 0) {
      this.any(L, out, -2, level + 1);
      this.any(L, out, -1, level + 1);
      lua.lua_settop(L, -2);
    }
  }

  /** `mp_table_is_an_array` without holes: n when the keys are exactly 1..n (0 for `{}`). */
  private arrayLength(L: number, at: number): number | undefined {
    const lua = this.lua;
    let count = 0;
    let max = 0;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, at) !== 0) {
      const key = lua.lua_isinteger(L, -2) ? Number(lua.lua_tointegerx(L, -2, null)) : 0;
      if (key < 1) {
        lua.lua_settop(L, -3);
        return undefined;
      }
      count++;
      max = Math.max(max, key);
      lua.lua_settop(L, -2);
    }
    return max === count ? max : undefined;
  }

  /** `mp_ext_type`: the metatable's integer `__ext` in int8 range, if any. */
  private extType(L: number, at: number): number | undefined {
    const lua = this.lua;
    if (lua.luaL_getmetafield(L, at, '__ext') === LuaType.Nil) return undefined;
    const ext = lua.lua_isinteger(L, -1) ? Number(lua.lua_tointegerx(L, -1, null)) : undefined;
    lua.lua_settop(L, -2);
    return ext !== undefined && ext >= -128 && ext <= 127 ? ext : undefined;
  }
}
