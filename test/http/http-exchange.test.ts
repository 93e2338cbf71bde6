import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeFailure, exchange } from '../../src/http/http-exchange';
import { keepAlivePool } from '../../src/http/keep-alive-pool';
import { systemClock } from '../../src/platform/ports';

/**
 * The shared HTTP exchange of both clients against a real loopback server: the resend of a request
 * that met a closed pooled socket, and the cap on an answer's size.
 */
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server answering `{"n":<request number>}`; a reused socket is closed on arrival while `closeReused` > 0. */
async function serve(options: { closeReused?: number; body?: (n: number) => string | Buffer[] } = {}) {
  const seen = { requests: 0, dropped: 0, methods: [] as string[] };
  const used = new WeakSet<Socket>();
  let closeReused = options.closeReused ?? 0;
  server = createServer((req, res) => {
    seen.methods.push(req.method ?? '');
    if (used.has(req.socket) && closeReused > 0) {
      closeReused--;
      seen.dropped++;
      req.socket.destroy();
      return;
    }
    used.add(req.socket);
    seen.requests++;
    const body = options.body?.(seen.requests) ?? JSON.stringify({ n: seen.requests });
    if (typeof body === 'string') {
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const write = (i: number): void => {
      if (i >= body.length || res.destroyed) {
        res.end();
        return;
      }
      if (res.write(body[i])) write(i + 1);
      else res.once('drain', () => write(i + 1));
    };
    write(0);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const limits = { clock: systemClock, timeoutMs: 3000, maxBodyBytes: 1024 * 1024 };
const get = (origin: string, method = 'GET', resendable = true) => ({
  origin,
  path: '/x',
  method,
  headers: {},
  body: method === 'GET' ? null : '{}',
  resendable,
});

describe('http exchange', () => {
  it('sends a read again, once and at once, when its pooled socket was closed before any answer', async () => {
    const { origin, seen } = await serve({ closeReused: 1 });
    const pool = keepAlivePool(origin, 1);
    expect((await exchange(pool, get(origin), limits)).text).toBe('{"n":1}');
    expect((await exchange(pool, get(origin), limits)).text).toBe('{"n":2}');
    expect(seen.dropped).toBe(1);
    await pool.close();
  });

  it('never sends a write twice: a PATCH that met a closed socket fails as a network error', async () => {
    const { origin, seen } = await serve({ closeReused: 1 });
    const pool = keepAlivePool(origin, 1);
    await exchange(pool, get(origin), limits);
    const failure = await exchange(pool, get(origin, 'PATCH', false), limits).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ExchangeFailure);
    expect((failure as ExchangeFailure).reason).toBe('network');
    expect(seen.methods).toEqual(['GET', 'PATCH']);
    await pool.close();
  });

  it('stops reading an answer past the cap and calls it too large, declared or streamed', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const { origin } = await serve({
      body: (n) => (n === 1 ? 'x'.repeat(2 * 1024 * 1024) : Array.from({ length: 400 }, () => chunk)),
    });
    const pool = keepAlivePool(origin, 1);
    for (const _ of [1, 2]) {
      const failure = await exchange(pool, get(origin), limits).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ExchangeFailure);
      expect((failure as ExchangeFailure).reason).toBe('too_large');
    }
    await pool.close();
  });
});
