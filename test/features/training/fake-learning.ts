import { LearningApi } from '../../../src/features/training/api/learning-api';
import {
  createLearningHttp,
  type LearningHttpOptions,
} from '../../../src/features/training/api/learning-http';
import { FakeClock } from '../../http/limiter/fake-clock';
import {
  type FakeReply,
  type FakeRequest,
  fakeOrigin,
  recordingLogger,
} from '../../roster/client/fake-roster';

export const ORIGIN = 'https://learn.test';
export const KEY = 'lms_k1234abcd_0123456789abcdef0123456789abcdef';

export type Handler = (request: FakeRequest) => FakeReply;

/** A MockAgent answering every request through `handler`, recording requests with fake time. */
export function fakeLearning(clock: FakeClock, handler: Handler) {
  return fakeOrigin(ORIGIN, clock, handler, '');
}

/** A learning client on a fake clock over a handler, with test-friendly defaults. */
export function testLearning(handler: Handler, overrides: Partial<LearningHttpOptions> = {}) {
  const clock = new FakeClock();
  const { agent, requests } = fakeLearning(clock, handler);
  const { logger, lines } = recordingLogger();
  const http = createLearningHttp({
    baseUrl: ORIGIN,
    apiKey: KEY,
    userAgent: 'roster-fivem/test',
    timeoutMs: 5000,
    perMinute: 600,
    clock,
    logger,
    dispatcher: agent,
    random: () => 0.5,
    ...overrides,
  });
  return { clock, http, api: new LearningApi(http), requests, lines, logger };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): FakeReply => ({
  status,
  body,
  headers,
});

export const error = (status: number, code: string, message: string): FakeReply => ({
  status,
  body: { error: { code, message } },
});

export { FakeClock };
