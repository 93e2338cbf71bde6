/**
 * How a value unpacked from msgpack looks to Lua code in FXServer: scheduler.lua unpacks every
 * payload with its msgpack library straight into Lua values (data/shared/citizen/scripting/lua/
 * scheduler.lua, `msgpack_unpack`), so maps and arrays are plain tables, nil is nil (JS `null`
 * and `undefined` both pack as nil, and a nil map value leaves the key out), bin is a string.
 * wasmoon pushes JS arrays and objects as fresh tables and `undefined` as nil (with its proxy
 * and null extensions off), so the value is rebuilt here in that shape first.
 */
export function toLuaValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value;
  if (isThenable(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Object.prototype.toString.call(value) === '[object ArrayBuffer]') {
    return Buffer.from(new Uint8Array(value as ArrayBuffer)).toString('utf8');
  }
  if (Array.isArray(value)) return value.map(toLuaValue);
  const table: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const converted = toLuaValue(item);
    if (converted !== undefined) table[key] = converted;
  }
  return table;
}

function isThenable(value: object): boolean {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * scheduler.lua's `_G.source` for an event: the raw source string, except `net:N` and (on the
 * server) `internal-net:N`, which become the number N.
 */
export function luaEventSource(source: string): string | number {
  if (source.startsWith('net')) return Number(source.substring(4));
  if (source.startsWith('internal-net')) return Number(source.substring(13));
  return source;
}
