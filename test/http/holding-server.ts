import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import type { FakeClock } from './limiter/fake-clock';

export interface Arrival {
  path: string;
  /** The fake clock's time when the request reached the server. */
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/**
 * A loopback server whose first request is held unanswered until `answerHeld` (so a client with a
 * one-socket pool has to queue the next request for the socket); every other request is answered
 * by `reply` at once. Arrivals are recorded on the fake clock. `pool` is a one-socket pool on it.
 */
export async function holdingServer(clock: FakeClock, reply: (path: string) => Reply) {
  const arrivals: Arrival[] = [];
  let held: ServerResponse | undefined;
  const send = (res: ServerResponse, answer: Reply) => {
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  };
  const server = createServer((req, res) => {
    arrivals.push({ path: req.url ?? '', at: clock.now() });
    if (arrivals.length === 1) held = res;
    else send(res, reply(req.url ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pool = new Pool(origin, { connections: 1 });
  return {
    origin,
    pool,
    arrivals,
    answerHeld(answer: Reply) {
      if (!held) throw new Error('no request is held');
      send(held, answer);
    },
    async close() {
      await pool.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
