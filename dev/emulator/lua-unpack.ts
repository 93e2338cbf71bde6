import type { LuaWasm } from 'wasmoon';
import { pushLuaBytes } from './lua-bytes';
import { EXT_FUNCREF } from './msgpack-codec';

const EXT_LOCALFUNCREF = 11;
const MAX_INTEGER = (1n << 63n) - 1n;

export interface LuaUnpackHooks {
  /** scheduler.lua `funcref_mt.__unpack`: a callable funcref table for `ref`, pushed on L. */
  pushFuncRef(L: number, ref: string): void;
}

/**
 * msgpack bytes unpacked onto a Lua stack as lua-cmsgpack does (citizenfx/lua-cmsgpack, branch
 * grit: src/lua_cmsgpack.c `mp_decode_to_lua_type`, `mp_unpacker`):
 *
 * - integers as Lua integers (an unsigned one above math.maxinteger as a float), float32 and
 *   float64 as Lua floats: so a JS number from 2^31 up, which msgpack.js writes as float64,
 *   is a float in Lua;
 * - str and bin alike as Lua strings of the exact bytes;
 * - an array as a table 1..n where a nil element leaves a hole; a map as a table without the
 *   entries whose key or value is nil;
 * - ext 10/11 as a funcref table; any other ext as a string of its data.
 *
 * Returns how many values it pushed (every value in the bytes; none for empty bytes).
 */
export function unpackToLua(lua: LuaWasm, L: number, bytes: Uint8Array, hooks: LuaUnpackHooks): number {
  const reader = new Reader(lua, L, bytes, hooks);
  let count = 0;
  while (!reader.done()) {
    reader.value();
    count++;
  }
  return count;
}

class Reader {
  private at = 0;
  private readonly view: DataView;

  constructor(
    private readonly lua: LuaWasm,
    private readonly L: number,
    private readonly bytes: Uint8Array,
    private readonly hooks: LuaUnpackHooks,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  done(): boolean {
    return this.at >= this.bytes.length;
  }

  value(): void {
    const { lua, L } = this;
    lua.luaL_checkstack(L, 3, null);
    const head = this.take(1);
    if (head <= 0x7f) lua.lua_pushinteger(L, BigInt(head));
    else if (head >= 0xe0) lua.lua_pushinteger(L, BigInt(head - 0x100));
    else if (head <= 0x8f) this.map(head & 0x0f);
    else if (head <= 0x9f) this.array(head & 0x0f);
    else if (head <= 0xbf) this.data(head & 0x1f);
    else if (head >= 0xc4 && head <= 0xc6) this.data(this.take(1 << (head - 0xc4)));
    else if (head >= 0xc7 && head <= 0xc9) this.ext(this.take(1 << (head - 0xc7)));
    else if (head >= 0xd4 && head <= 0xd8) this.ext(1 << (head - 0xd4));
    else if (head >= 0xd9 && head <= 0xdb) this.data(this.take(1 << (head - 0xd9)));
    else this.scalar(head);
  }

  private scalar(head: number): void {
    const { lua, L, view } = this;
    switch (head) {
      case 0xc0:
        lua.lua_pushnil(L);
        break;
      case 0xc2:
      case 0xc3:
        lua.lua_pushboolean(L, head & 1);
        break;
      case 0xca:
        lua.lua_pushnumber(L, view.getFloat32(this.skip(4)));
        break;
      case 0xcb:
        lua.lua_pushnumber(L, view.getFloat64(this.skip(8)));
        break;
      case 0xcc:
      case 0xcd:
      case 0xce:
        lua.lua_pushinteger(L, BigInt(this.take(1 << (head - 0xcc))));
        break;
      case 0xcf: {
        const n = view.getBigUint64(this.skip(8));
        if (n > MAX_INTEGER) lua.lua_pushnumber(L, Number(n));
        else lua.lua_pushinteger(L, n);
        break;
      }
      case 0xd0:
        lua.lua_pushinteger(L, BigInt(view.getInt8(this.skip(1))));
        break;
      case 0xd1:
        lua.lua_pushinteger(L, BigInt(view.getInt16(this.skip(2))));
        break;
      case 0xd2:
        lua.lua_pushinteger(L, BigInt(view.getInt32(this.skip(4))));
        break;
      case 0xd3:
        lua.lua_pushinteger(L, view.getBigInt64(this.skip(8)));
        break;
      case 0xdc:
      case 0xdd:
        this.array(this.take(head === 0xdc ? 2 : 4));
        break;
      case 0xde:
      case 0xdf:
        this.map(this.take(head === 0xde ? 2 : 4));
        break;
      default:
        throw new Error('msgpack format data is invalid');
    }
  }

  private array(size: number): void {
    const { lua, L } = this;
    lua.lua_createtable(L, size, 0);
    for (let i = 1; i <= size; i++) {
      this.value();
      lua.lua_rawseti(L, -2, BigInt(i));
    }
  }

  private map(size: number): void {
    const { lua, L } = this;
    lua.lua_createtable(L, 0, 0);
    for (let i = 0; i < size; i++) {
      this.value();
      this.value();
      // A nil key drops the entry (its value with it); a nil value sets nothing.
      if (lua.lua_type(L, -2) === 0) lua.lua_settop(L, -3);
      else lua.lua_rawset(L, -3);
    }
  }

  private data(length: number): void {
    pushLuaBytes(this.lua, this.L, this.bytes.subarray(this.skip(length), this.at));
  }

  private ext(length: number): void {
    const type = this.view.getInt8(this.skip(1));
    const data = this.bytes.subarray(this.skip(length), this.at);
    if (type === EXT_FUNCREF || type === EXT_LOCALFUNCREF) {
      this.hooks.pushFuncRef(this.L, new TextDecoder().decode(data));
    } else {
      pushLuaBytes(this.lua, this.L, data);
    }
  }

  /** A big-endian unsigned integer of 1, 2 or 4 bytes. */
  private take(width: number): number {
    const at = this.skip(width);
    if (width === 1) return this.view.getUint8(at);
    return width === 2 ? this.view.getUint16(at) : this.view.getUint32(at);
  }

  /** Moves past `width` bytes and gives where they start; short data is msgpack-c's CONTINUE. */
  private skip(width: number): number {
    const at = this.at;
    if (at + width > this.bytes.length) throw new Error('msgpack format data is incomplete');
    this.at = at + width;
    return at;
  }
}
