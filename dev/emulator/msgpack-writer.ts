/**
 * msgpack bytes as msgpack-c writes them (pack_template.h), which lua-cmsgpack uses for the Lua
 * side: the smallest integer form (positive values as unsigned, `msgpack_pack_int64`), strings
 * as v4 raw (`string_compat`: fixraw, raw16, raw32; never str8) and `msgpack_pack_ext`'s headers.
 */
export class MsgpackWriter {
  private buffer = new Uint8Array(64);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  nil(): void {
    this.byte(0xc0);
  }

  boolean(value: boolean): void {
    this.byte(value ? 0xc3 : 0xc2);
  }

  integer(d: bigint): void {
    if (d < -(1n << 5n)) {
      if (d < -(1n << 31n)) this.fixed(0xd3, 8, d);
      else if (d < -(1n << 15n)) this.fixed(0xd2, 4, d);
      else if (d < -(1n << 7n)) this.fixed(0xd1, 2, d);
      else this.fixed(0xd0, 1, d);
    } else if (d < 1n << 7n) {
      this.byte(Number(BigInt.asUintN(8, d)));
    } else if (d < 1n << 8n) this.fixed(0xcc, 1, d);
    else if (d < 1n << 16n) this.fixed(0xcd, 2, d);
    else if (d < 1n << 32n) this.fixed(0xce, 4, d);
    else this.fixed(0xcf, 8, d);
  }

  double(value: number): void {
    this.reserve(9);
    this.buffer[this.length] = 0xcb;
    this.view.setFloat64(this.length + 1, value);
    this.length += 9;
  }

  /** `msgpack_pack_v4raw`: the string_compat form scheduler.lua selects. */
  raw(data: Uint8Array): void {
    if (data.length < 32) this.byte(0xa0 | data.length);
    else this.sized(0xda, 0xdb, data.length);
    this.append(data);
  }

  array(size: number): void {
    if (size < 16) this.byte(0x90 | size);
    else this.sized(0xdc, 0xdd, size);
  }

  map(size: number): void {
    if (size < 16) this.byte(0x80 | size);
    else this.sized(0xde, 0xdf, size);
  }

  ext(type: number, data: Uint8Array): void {
    const fixed = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 }[data.length];
    if (fixed !== undefined) this.byte(fixed);
    else if (data.length < 0x100) this.fixed(0xc7, 1, BigInt(data.length));
    else this.sized(0xc8, 0xc9, data.length);
    this.byte(type & 0xff);
    this.append(data);
  }

  /** A 16-bit size below 65536, else 32-bit. */
  private sized(head16: number, head32: number, size: number): void {
    if (size < 0x10000) this.fixed(head16, 2, BigInt(size));
    else this.fixed(head32, 4, BigInt(size));
  }

  /** A head byte and `width` big-endian bytes of `value` (two's complement). */
  private fixed(head: number, width: number, value: bigint): void {
    this.reserve(1 + width);
    this.buffer[this.length++] = head;
    const bits = BigInt.asUintN(width * 8, value);
    for (let i = width - 1; i >= 0; i--) {
      this.buffer[this.length++] = Number((bits >> BigInt(i * 8)) & 0xffn);
    }
  }

  private byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  private append(data: Uint8Array): void {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }
}
