import { afterEach, describe, expect, it, vi } from 'vitest';
import { LearningApi } from '../../src/features/training/api/learning-api';
import { createLearningHttp } from '../../src/features/training/api/learning-http';
import { TrainingApiError } from '../../src/features/training/api/training-api-error';
import type { LimiterState } from '../../src/http';
import { RosterServiceError } from '../../src/http/roster-api-error';
import { fail, ok, recordingLogger, testClient } from '../roster/client/fake-roster';
import { holdingServer, type Reply } from './holding-server';
import { FakeClock } from './limiter/fake-clock';

/**
 * The window between the limiter's grant and the request leaving the process, against a real
 * loopback server: with one socket, the second request is let go by the limiter but queues for the
 * socket the first one holds. The first is then answered with something that stops every request
 * (a 429, a refused key); the second must not go out after it. Both services' clients run the same
 * request loop; each is driven here with its own requests, answers and errors.
 */
interface Client {
  limiterState(): LimiterState;
  first(): Promise<unknown>;
  second(): Promise<unknown>;
  close(): Promise<void>;
}

interface Side {
  name: string;
  /** Every answer but the held one. */
  reply(path: string): Reply;
  connect(clock: FakeClock, server: Awaited<ReturnType<typeof holdingServer>>): Client;
  firstPath: string;
  /** What the two requests resolve to once the 429's pause is over. */
  answers: unknown[];
  rateLimitedBody: unknown;
  refusedBody: unknown;
  /** The refused key, as the first request rejects with it and the second meets it. */
  firstRefusal: new (
    ...args: never[]
  ) => Error;
  secondRefusal: object;
}

const roster: Side = {
  name: 'roster client',
  reply: (path) => ({ status: 200, body: ok({ path }).body }),
  connect(clock, server) {
    const { api } = testClient(clock, server.pool, { baseUrl: server.origin, timeoutMs: 120_000 });
    return {
      limiterState: () => api.limiterState(),
      first: () => api.get('/api/v1/first'),
      second: () => api.get('/api/v1/second'),
      close: () => api.close(),
    };
  },
  firstPath: '/api/v1/first',
  answers: [{ path: '/api/v1/first' }, { path: '/api/v1/second' }],
  rateLimitedBody: fail(429, 'rate_limited').body,
  refusedBody: fail(401, 'invalid_api_key', 'The key is revoked').body,
  firstRefusal: RosterServiceError,
  secondRefusal: { code: 'invalid_api_key' },
};

const learning: Side = {
  name: 'learning client',
  reply: (path) => ({ status: 200, body: path.includes('/courses') ? { courses: [] } : { linked: false } }),
  connect(clock, server) {
    const http = createLearningHttp({
      baseUrl: server.origin,
      apiKey: 'lms_k1234abcd_0123456789abcdef0123456789abcdef',
      userAgent: 'roster-fivem/test',
      timeoutMs: 120_000,
      perMinute: 600,
      clock,
      logger: recordingLogger().logger,
      dispatcher: server.pool,
    });
    const api = new LearningApi(http);
    return {
      limiterState: () => http.limiterState(),
      first: () => api.courses(),
      second: () => api.link('123456'),
      close: () => http.close(),
    };
  },
  firstPath: '/api/public/v1/courses',
  answers: [[], { linked: false }],
  rateLimitedBody: { error: {} },
  refusedBody: { error: { code: 'unauthorized', message: 'revoked' } },
  firstRefusal: TrainingApiError,
  secondRefusal: { status: 401 },
};

/** Real I/O on loopback: polled for, with room for a busy machine. */
const SOON = { timeout: 10_000, interval: 5 };
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function twoRequests(side: Side) {
  const clock = new FakeClock();
  const server = await holdingServer(clock, side.reply);
  const client = side.connect(clock, server);
  close = async () => {
    await client.close();
    await server.close();
  };
  const first = client.first();
  await vi.waitFor(() => expect(server.arrivals).toHaveLength(1), SOON);
  const second = client.second();
  for (const each of [first, second]) each.catch(() => undefined);
  // Granted at once (the burst is not spent), and waiting in the pool for the only socket.
  await vi.waitFor(() => expect(server.pool.stats.queued).toBe(1), SOON);
  const queued = () => Object.values(client.limiterState().queued).reduce((a, b) => a + b, 0);
  expect(queued()).toBe(0);
  return { clock, server, first, second, queued };
}

describe.each([roster, learning])('$name: a request let go but not yet sent', (side) => {
  it('waits out a 429 that came meanwhile', async () => {
    const { clock, server, first, second, queued } = await twoRequests(side);
    const pausedAt = clock.now();
    server.answerHeld({ status: 429, headers: { 'retry-after': '30' }, body: side.rateLimitedBody });
    // Then either the second request reached the service, or it waits for the limiter again
    // beside the first one's retry.
    await vi.waitFor(() => expect(server.arrivals.length - 1 + queued()).toBe(2), SOON);
    expect(server.arrivals.map((a) => a.path)).toEqual([side.firstPath]);

    await clock.advance(30_000);
    await expect(Promise.all([first, second])).resolves.toEqual(side.answers);
    expect(server.arrivals).toHaveLength(3);
    for (const later of server.arrivals.slice(1)) expect(later.at).toBeGreaterThanOrEqual(pausedAt + 30_000);
  });

  it('is not sent once the key was refused meanwhile', async () => {
    const { server, first, second } = await twoRequests(side);
    server.answerHeld({ status: 401, body: side.refusedBody });
    await expect(first).rejects.toBeInstanceOf(side.firstRefusal);
    await expect(second).rejects.toMatchObject(side.secondRefusal);
    expect(server.arrivals.map((a) => a.path)).toEqual([side.firstPath]);
  });
});
