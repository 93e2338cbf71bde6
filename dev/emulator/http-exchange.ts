import type { IncomingMessage } from 'node:http';
import type { FxHttpResponse } from './http-response';

type Fn = (...args: unknown[]) => unknown;

/** The request and response objects a resource's handler gets (ResourceHttpHandler.cpp RequestWrap, ResponseWrap). */
export interface HttpWraps {
  readonly request: Record<string, unknown>;
  readonly response: Record<string, unknown>;
}

/**
 * One request handed to a resource. The wraps' functions are server callbacks: the resource
 * reaches them as funcrefs, and their arguments are read the way msgpack-c's `as<T>()` reads
 * them in ResourceHttpHandler.cpp, so a wrong type throws (main.js then reports a failed
 * nested ref call to the resource).
 */
export class HttpExchange {
  private dataHandler: { fn: Fn; binary: boolean } | null = null;
  private pending: Buffer | null = null;
  private cancelHandler: Fn | null = null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly response: FxHttpResponse,
    private readonly localPath: string,
  ) {}

  wraps(): HttpWraps {
    const { req, response } = this;
    const request = {
      headers: wrapHeaders(req.rawHeaders),
      method: req.method ?? 'GET',
      // net::PeerAddress::ToString.
      address: peerAddress(req.socket.remoteAddress ?? '127.0.0.1', req.socket.remotePort ?? 0),
      path: `/${this.localPath}`,
      setDataHandler: (fn: unknown, kind?: unknown) => {
        const binary = kind === undefined ? false : asString(kind).toString('utf8') === 'binary';
        if (typeof fn !== 'function') return; // only an ext funcref is taken
        // HttpRequest::SetDataHandler: a body already read is handed over at once, and only once.
        if (this.pending) {
          const body = this.pending;
          this.pending = null;
          deliver(fn as Fn, body, binary);
          return;
        }
        this.dataHandler = { fn: fn as Fn, binary };
      },
      setCancelHandler: (fn: unknown) => {
        if (typeof fn === 'function' && !response.ended) this.cancelHandler = fn as Fn;
      },
    };
    const wrap = {
      write: (data: unknown) => response.write(asString(data)),
      writeHead: (...state: unknown[]) => {
        const code = asInt(state[0]);
        if (state.length > 1) {
          for (const [name, value] of Object.entries(asMap(state[1]))) {
            response.setHeader(
              name,
              Array.isArray(value)
                ? value.map((v) => asString(v).toString('utf8'))
                : asString(value).toString('utf8'),
            );
          }
        }
        response.statusCode = code;
        // The head goes out at once, except for HTTP/1.0 (the first write sets Content-Length).
        if (req.httpVersion !== '1.0') response.writeHead();
      },
      send: (...state: unknown[]) => {
        this.cancelHandler = null;
        response.end(state.length === 0 ? undefined : asString(state[0]));
      },
    };
    return { request, response: wrap };
  }

  /**
   * Http1Server.cpp, the whole body at once: with Content-Length it waits for a data handler
   * if none is set yet (SetPendingData); a chunked body reaching no handler is dropped.
   */
  bodyComplete(body: Buffer, chunked: boolean): void {
    const handler = this.dataHandler;
    this.dataHandler = null;
    if (handler) deliver(handler.fn, body, handler.binary);
    else if (!chunked) this.pending = body;
  }

  /** The connection closed before `send` (Http1Server.cpp close callback). */
  cancelled(): void {
    const cancel = this.cancelHandler;
    this.cancelHandler = null;
    if (cancel && !this.response.ended) cancel();
  }
}

/**
 * `std::string` or `std::vector<uint8_t>` (binary), as ResourceHttpHandler.cpp calls the data
 * handler: msgpack str or bin, which main.js's codec (`binarraybuffer`) unpacks as an ArrayBuffer.
 */
function deliver(fn: Fn, body: Buffer, binary: boolean): void {
  fn(binary ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) : body.toString('utf8'));
}

/** Http1Server.cpp fills a case-insensitive multimap; the wrap copies it into a std::map: first value per exact name. */
function wrapHeaders(raw: readonly string[]): Record<string, string> {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  pairs.sort((a, b) => caseless(a[0], b[0]));
  const map = new Map<string, string>();
  for (const [name, value] of pairs) if (!map.has(name)) map.set(name, value);
  const headers: Record<string, string> = {};
  for (const name of [...map.keys()].sort()) headers[name] = map.get(name)!;
  return headers;
}

function caseless(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

function peerAddress(ip: string, port: number): string {
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return plain.includes(':') ? `[${plain}]:${port}` : `${plain}:${port}`;
}

/** msgpack-c `as<std::string>()`: str or bin, nothing else. */
function asString(value: unknown): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof Uint8Array) return Buffer.from(value);
  // bin unpacks as an ArrayBuffer (`binarraybuffer`), whichever realm made it.
  if (Object.prototype.toString.call(value) === '[object ArrayBuffer]') {
    return Buffer.from(new Uint8Array(value as ArrayBuffer));
  }
  throw new TypeError('std::bad_cast (expected a string)');
}

/** msgpack-c `as<int>()`: an integer, nothing else. */
function asInt(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new TypeError('std::bad_cast (expected an integer)');
}

/** msgpack-c `as<std::map<std::string, msgpack::object>>()`. */
function asMap(value: unknown): Record<string, unknown> {
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array)
  ) {
    return value as Record<string, unknown>;
  }
  throw new TypeError('std::bad_cast (expected a map)');
}
