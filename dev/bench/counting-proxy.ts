import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy: when it arrived (epoch ms) and what it asked for. */
export interface ProxiedRequest {
  time: number;
  method: string;
  path: string;
}

export interface CountingProxy {
  /** The proxy's base URL: give it to one server instead of the service's. */
  url: string;
  /** Every request that went through, oldest first. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A pass-through in front of the mock for one server, so what that server alone asked the service
 * can be told apart from the other servers on the same key (the mock sees one key either way).
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ time: Date.now(), method: req.method ?? 'GET', path: req.url ?? '/' });
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
