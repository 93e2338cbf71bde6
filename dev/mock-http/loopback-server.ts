import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Names the mock in the plain-text 500 a bug of its own produces, e.g. `mock roster`. */
  name: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Runs first in `close()`, e.g. to cancel pending latency sleeps. */
  beforeClose?(): void;
}

export interface LoopbackServer {
  /** e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** Stops listening and ends every connection, hung and keep-alive ones included. */
  close(): Promise<void>;
}

/** Starts an HTTP server for a mock; resolves once it listens. */
export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    options.handle(req, res).catch((error: unknown) => {
      // A bug in the mock itself: answer rather than leave the client waiting.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`${options.name} failure: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        options.beforeClose?.();
        server.close(() => resolve());
        // Hung and keep-alive connections would hold close() open forever.
        server.closeAllConnections();
      }),
  };
}
