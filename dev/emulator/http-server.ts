import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FuncRefRegistry } from './funcrefs';
import { HttpExchange } from './http-exchange';
import { FxHttpResponse } from './http-response';
import { createPacker, hostMsgpack, type Packer } from './msgpack-codec';

type Fn = (...args: unknown[]) => unknown;

/** Http1Server.cpp: a connection whose unread bytes pass 5 MiB is closed. */
const MAX_READ_BYTES = 5 * 1024 * 1024;
/** Http1Server.cpp: picohttpparser is given room for 50 headers; more is a parse error. */
const MAX_HEADERS = 50;
/** HttpServerManager.cpp: sv_httpHandlerConnectionTimeoutSeconds, 300 by default. */
const HANDLER_TIMEOUT_MS = 300_000;

/**
 * FXServer's HTTP server on the game port (citizen-server-net/src/HttpServerManager.cpp), on a
 * loopback port here. Each started resource owns the endpoint `/<name>/` and answers it with the
 * function it gave `SetHttpHandler` (citizen-server-impl/src/ResourceHttpHandler.cpp).
 */
export class ResourceHttpServer {
  /** HttpServerManager's `std::map<prefix, handler>`: tried in byte order of the prefix. */
  private readonly endpoints = new Map<string, string>();
  /** ResourceHttpComponent::m_handlerRef: per resource, kept across a restart until replaced. */
  private readonly handlers = new Map<string, Fn>();
  private readonly requestsOn = new WeakMap<Socket, number>();
  private readonly packer: Packer;
  private packingFor = 'http';
  private server: Server | null = null;
  private origin: string | null = null;

  constructor(private readonly refs: FuncRefRegistry) {
    const packer: Packer = createPacker(hostMsgpack(), {
      // The wraps' functions become refs the resource calls (ResourceCallbackComponent::CreateCallback).
      toRef: (fn) =>
        refs.create(this.packingFor, (args) => {
          fn(...(packer.unpack(args) as unknown[]));
          return packer.pack([]);
        }),
      fromRef:
        (ref) =>
        (...args: unknown[]) =>
          packer.unpack(refs.invoke(ref, packer.pack(args), null)),
    });
    this.packer = packer;
  }

  /** `http://127.0.0.1:<port>` once listening. */
  get url(): string | null {
    return this.origin;
  }

  async listen(): Promise<string> {
    if (this.origin) return this.origin;
    const server = createServer((req, res) => this.route(req, res));
    // Node's own request timeout would answer 408 where FXServer keeps waiting.
    server.requestTimeout = 0;
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A test or tool that forgets stop() must not hang on this socket.
    server.unref();
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.origin;
  }

  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
    this.server = null;
    this.origin = null;
  }

  /** SET_HTTP_HANDLER: the funcref (msgpack ext bytes) the resource passed. */
  setHandler(resource: string, packedRef: Uint8Array): void {
    const handler = this.packer.unpack(packedRef);
    if (typeof handler === 'function') this.handlers.set(resource, handler as Fn);
  }

  /** ResourceHttpComponent OnStart: the endpoint `/<name>/` is added. */
  resourceStarted(resource: string): void {
    this.endpoints.set(`/${resource}/`, resource);
  }

  /** OnStop: the endpoint goes (the handler ref stays, and is dead once the resource's refs are). */
  resourceStopped(resource: string): void {
    this.endpoints.delete(`/${resource}/`);
    this.refs.releaseOwner(`http:${resource}`);
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const count = (this.requestsOn.get(socket) ?? 0) + 1;
    this.requestsOn.set(socket, count);
    if (req.rawHeaders.length / 2 > MAX_HEADERS) {
      socket.destroy();
      return;
    }
    const response = new FxHttpResponse(req, res, count > 10);
    const path = req.url ?? '/';
    const resource = this.match(path);
    if (resource === null) {
      this.readBody(req, null);
      if (path === '/') {
        // ResourceHttpHandler.cpp: the root endpoint answers the server's version.
        response.end(Buffer.from(JSON.stringify({ version: 'FXServer-emulator' })));
        return;
      }
      response.statusCode = 404;
      response.end(Buffer.from(`Route ${path} not found.`));
      return;
    }
    // ResourceHttpHandler.cpp: requests from a proxy address skip the per-address rate limit, and
    // loopback is one by default (sv_proxyIPRanges, ProxyAddressList.cpp), so none applies here.
    const handler = this.handlers.get(resource);
    if (!handler) {
      this.readBody(req, null);
      response.statusCode = 404;
      response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      response.end(Buffer.from('Not found.'));
      return;
    }
    // HandleRequest: the prefix's length is cut off; `/roster` (no slash) becomes `/`.
    const prefixLength = resource.length + 2;
    const exchange = new HttpExchange(
      req,
      response,
      path.length >= prefixLength ? path.slice(prefixLength) : '',
    );
    this.readBody(req, exchange);
    // HttpServerManager.cpp StartConnectionTimeout; Node destroys a socket that times out with
    // no listener, and puts its keep-alive timeout back once the response is finished.
    socket.setTimeout(HANDLER_TIMEOUT_MS);
    res.once('close', () => exchange.cancelled());
    const { request, response: wrap } = exchange.wraps();
    this.packingFor = `http:${resource}`;
    try {
      handler(request, wrap);
    } catch {
      // RefScriptFunctions.cpp: a ref that no longer resolves (the resource restarted without
      // calling SetHttpHandler again) calls nothing; the client waits until the timeout.
    } finally {
      this.packingFor = 'http';
    }
  }

  /** HttpServerManager.cpp: a prefix matches without case, or the path is the prefix minus its slash. */
  private match(path: string): string | null {
    const lower = path.toLowerCase();
    for (const prefix of [...this.endpoints.keys()].sort()) {
      const p = prefix.toLowerCase();
      if (lower.startsWith(p) || lower === p.slice(0, -1)) return this.endpoints.get(prefix)!;
    }
    return null;
  }

  /** Http1Server.cpp: a body is read for Content-Length > 0 (atoi), else for `chunked` exactly. */
  private readBody(req: IncomingMessage, exchange: HttpExchange | null): void {
    const length = Number.parseInt(String(req.headers['content-length'] ?? '0'), 10) || 0;
    const chunked = length <= 0 && req.headers['transfer-encoding'] === 'chunked';
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_READ_BYTES) req.socket.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (exchange && (length > 0 || chunked)) exchange.bodyComplete(Buffer.concat(chunks), chunked);
    });
  }
}
