import { afterEach, describe, expect, it, vi } from 'vitest';
import { LearningApi } from '../../../../src/features/training/api/learning-api';
import { createLearningHttp } from '../../../../src/features/training/api/learning-http';
import { TrainingApiError } from '../../../../src/features/training/api/training-api-error';
import { holdingServer } from '../../../http/holding-server';
import { FakeClock } from '../../../http/limiter/fake-clock';
import { recordingLogger } from '../../../roster/client/fake-roster';

/**
 * The window between the limiter's grant and the request leaving the process, against a real
 * loopback server: with one socket, the second request is let go by the limiter but queues for the
 * socket the first one holds. The first is then answered with something that stops every request
 * (a 429, a refused key); the second must not go out after it.
 */
/** Real I/O on loopback: polled for, with room for a busy machine. */
const SOON = { timeout: 10_000, interval: 5 };
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function twoRequests() {
  const clock = new FakeClock();
  const server = await holdingServer(clock, (path) => ({
    status: 200,
    body: path.includes('/courses') ? { courses: [] } : { linked: false },
  }));
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
  close = async () => {
    await http.close();
    await server.close();
  };
  const first = api.courses();
  await vi.waitFor(() => expect(server.arrivals).toHaveLength(1), SOON);
  const second = api.link('123456');
  for (const each of [first, second]) each.catch(() => undefined);
  // Granted at once (the burst is not spent), and waiting in the pool for the only socket.
  await vi.waitFor(() => expect(server.pool.stats.queued).toBe(1), SOON);
  const queued = () => Object.values(http.limiterState().queued).reduce((a, b) => a + b, 0);
  expect(queued()).toBe(0);
  return { clock, server, first, second, queued };
}

describe('learning client: a request let go but not yet sent', () => {
  it('waits out a 429 that came meanwhile', async () => {
    const { clock, server, first, second, queued } = await twoRequests();
    const pausedAt = clock.now();
    server.answerHeld({ status: 429, headers: { 'retry-after': '30' }, body: { error: {} } });
    // Then either the second request reached the service, or it waits for the limiter again
    // beside the first one's retry.
    await vi.waitFor(() => expect(server.arrivals.length - 1 + queued()).toBe(2), SOON);
    expect(server.arrivals.map((a) => a.path)).toEqual(['/api/public/v1/courses']);

    await clock.advance(30_000);
    await expect(Promise.all([first, second])).resolves.toEqual([[], { linked: false }]);
    expect(server.arrivals).toHaveLength(3);
    for (const later of server.arrivals.slice(1)) expect(later.at).toBeGreaterThanOrEqual(pausedAt + 30_000);
  });

  it('is not sent once the key was refused meanwhile', async () => {
    const { server, first, second } = await twoRequests();
    server.answerHeld({ status: 401, body: { error: { code: 'unauthorized', message: 'revoked' } } });
    await expect(first).rejects.toBeInstanceOf(TrainingApiError);
    await expect(second).rejects.toMatchObject({ status: 401 });
    expect(server.arrivals.map((a) => a.path)).toEqual(['/api/public/v1/courses']);
  });
});
