import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type msgpackLite from 'msgpack-lite';

type MsgpackLite = typeof msgpackLite;
type Codec = ReturnType<MsgpackLite['createCodec']>;
type EncodeFn = (encoder: unknown, value: unknown) => void;

/** msgpack ext type FXServer uses for function references (main.js EXT_FUNCREF / EXT_LOCALFUNCREF). */
export const EXT_FUNCREF = 10;
const EXT_LOCALFUNCREF = 11;

export interface Packer {
  pack(value: unknown): Uint8Array;
  unpack(bytes: Uint8Array): unknown;
}

export interface FuncRefHooks {
  /** Registers a function and returns its ref string. */
  toRef(fn: (...args: unknown[]) => unknown): string;
  /** Builds a callable proxy for a ref string. */
  fromRef(ref: string): (...args: unknown[]) => unknown;
}

const require = createRequire(import.meta.url);
let distScript: vm.Script | undefined;

/**
 * Loads msgpack-lite's browser build into a resource's context, as FXServer does with its
 * `citizen:/scripting/v8/msgpack.js`, so decoded objects and arrays belong to the resource's
 * realm (`instanceof Array` holds inside it).
 */
export function loadMsgpackInto(context: vm.Context): MsgpackLite {
  distScript ??= new vm.Script(readFileSync(require.resolve('msgpack-lite/dist/msgpack.min.js'), 'utf8'), {
    filename: 'citizen:/scripting/v8/msgpack.js',
  });
  distScript.runInContext(context);
  return (context as { msgpack: MsgpackLite }).msgpack;
}

/** The host realm's msgpack-lite, for values the server itself sends (deferrals, setKickReason). */
export function hostMsgpack(): MsgpackLite {
  return require('msgpack-lite') as MsgpackLite;
}

/**
 * The codec of main.js: `createCodec({ uint8array: true, preset: false, binarraybuffer: true })`
 * plus funcref ext packers for Function and AsyncFunction (keyed by constructor name, so the
 * resource realm's functions match). FXServer's msgpack.js routes `typeof 'function'` values to
 * the ext packer where stock msgpack-lite writes nil (data/shared/citizen/scripting/v8/msgpack.js,
 * writeType.function); we reproduce that by wrapping the codec's encode.
 */
export function createPacker(msgpack: MsgpackLite, hooks: FuncRefHooks): Packer {
  const codec = msgpack.createCodec({ uint8array: true, preset: false, binarraybuffer: true });
  // Cast: the typings expect a Buffer back, msgpack-lite also takes the ref string.
  const toRef = ((fn: (...args: unknown[]) => unknown): string => hooks.toRef(fn)) as never;
  // Only these two constructor names get the packer in main.js; generators pack as nil.
  codec.addExtPacker(EXT_FUNCREF, { name: 'AsyncFunction' } as never, toRef);
  codec.addExtPacker(EXT_FUNCREF, Function as never, toRef);
  const fromRef = (data: Uint8Array): unknown => hooks.fromRef(Buffer.from(data).toString('utf8'));
  codec.addExtUnpacker(EXT_FUNCREF, fromRef);
  codec.addExtUnpacker(EXT_LOCALFUNCREF, fromRef);

  const mutable = codec as Codec & { encode: EncodeFn; getExtPacker(value: unknown): unknown };
  const base = mutable.encode;
  mutable.encode = (encoder, value) => {
    // FXServer's msgpack.js writes every number that `0 | n` changes as float64 (0xcb): integers
    // from 2^31 up (and below -2^31) arrive in Lua as floats; this msgpack-lite writes uint32.
    if (typeof value === 'number' && value !== (value | 0)) {
      writeFloat64(encoder, value);
      return;
    }
    if (typeof value === 'function') {
      const packer = mutable.getExtPacker(value) as ((v: unknown) => unknown) | undefined;
      base(encoder, packer ? packer(value) : null);
      return;
    }
    base(encoder, value);
  };

  return {
    pack: (value) => msgpack.encode(value, { codec }) as unknown as Uint8Array,
    unpack: (bytes) => msgpack.decode(bytes as Buffer, { codec }),
  };
}

/** msgpack float 64: 0xcb and the IEEE 754 big-endian bytes, into msgpack-lite's encode buffer. */
function writeFloat64(encoder: unknown, value: number): void {
  const flex = encoder as { reserve(length: number): number; buffer: Uint8Array };
  const offset = flex.reserve(9);
  const buffer = flex.buffer;
  buffer[offset] = 0xcb;
  new DataView(buffer.buffer, buffer.byteOffset + offset + 1, 8).setFloat64(0, value);
}
