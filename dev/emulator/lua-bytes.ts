import type { LuaWasm } from 'wasmoon';

/**
 * Lua strings as bytes. A Lua string is any byte sequence (msgpack payloads, bin from JS), while
 * wasmoon's own string helpers decode and encode UTF-8 and stop at a NUL; these go through the
 * wasm heap with the length instead.
 */
export function readLuaBytes(lua: LuaWasm, L: number, index: number): Uint8Array {
  const m = lua.module;
  const lengthAt = m._malloc(4);
  try {
    const at = m.ccall(
      'lua_tolstring',
      'number',
      ['number', 'number', 'number'],
      [L, index, lengthAt],
    ) as number;
    const length = (m.getValue(lengthAt, 'i32') as number) >>> 0;
    return m.HEAPU8.slice(at, at + length);
  } finally {
    m._free(lengthAt);
  }
}

export function pushLuaBytes(lua: LuaWasm, L: number, bytes: Uint8Array): void {
  const m = lua.module;
  const at = m._malloc(Math.max(1, bytes.length));
  try {
    m.HEAPU8.set(bytes, at);
    m.ccall('lua_pushlstring', 'number', ['number', 'number', 'number'], [L, at, bytes.length]);
  } finally {
    m._free(at);
  }
}
