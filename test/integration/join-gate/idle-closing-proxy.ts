import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback proxy that behaves like a server (or load balancer) with its own idea of keep-alive:
 * it never announces a `Keep-Alive: timeout`, closes a socket idle for `idleCloseMs`, and on
 * request can close a reused socket the moment the next request arrives on it, before any answer
 * byte: the race a client loses when it reuses a socket the server is closing.
 */
export class IdleClosingProxy {
  /** Reused sockets to close on their next request. */
  closeOnReuse = 0;
  /** Requests dropped that way. */
  dropped = 0;
  /** Sockets the client closed (its FIN came first) and sockets this side closed for idleness. */
  readonly closedBy = { client: 0, server: 0 };
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(upstream: string, idleCloseMs: number): Promise<IdleClosingProxy> {
    const target = new URL(upstream);
    const served = new WeakMap<Socket, number>();
    const idle = new WeakMap<Socket, NodeJS.Timeout>();
    let proxy: IdleClosingProxy | undefined;
    const server = createServer((req, res) => {
      const socket = req.socket;
      clearTimeout(idle.get(socket));
      const count = served.get(socket) ?? 0;
      served.set(socket, count + 1);
      if (count > 0 && proxy && proxy.closeOnReuse > 0) {
        proxy.closeOnReuse--;
        proxy.dropped++;
        socket.destroy();
        return;
      }
      const forward = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const headers = { ...answer.headers };
          delete headers['keep-alive'];
          delete headers.connection;
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      res.on('finish', () => {
        idle.set(
          socket,
          setTimeout(() => {
            proxy!.closedBy.server++;
            socket.destroy();
          }, idleCloseMs),
        );
      });
      req.pipe(forward);
    });
    // No idle timeout of Node's own, and no Keep-Alive header announcing one.
    server.keepAliveTimeout = 0;
    server.on('connection', (socket: Socket) => {
      socket.on('end', () => {
        clearTimeout(idle.get(socket));
        proxy!.closedBy.client++;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new IdleClosingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
