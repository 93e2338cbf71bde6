import { MockAgent } from 'undici';
import { LearningApi } from '../../src/training/api/learning-api';
import { createLearningHttp, type LearningHttpOptions } from '../../src/training/api/learning-http';
import { type FakeReply, type FakeRequest, recordingLogger } from '../core/api/fake-roster';
import { FakeClock } from '../core/limiter/fake-clock';

export const ORIGIN = 'https://learn.test';
export const KEY = 'lms_k1234abcd_0123456789abcdef0123456789abcdef';

export type Handler = (request: FakeRequest) => FakeReply;

/** A MockAgent answering every request through `handler`, recording requests with fake time. */
export function fakeLearning(clock: FakeClock, handler: Handler) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const requests: FakeRequest[] = [];
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((options) => {
      const url = new URL(options.path, ORIGIN);
      const headers: Record<string, string> = {};
      if (options.headers)
        for (const [k, v] of Object.entries(options.headers)) headers[k.toLowerCase()] = String(v);
      const request: FakeRequest = {
        method: options.method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        body: typeof options.body === 'string' ? options.body : undefined,
        at: clock.now(),
      };
      requests.push(request);
      const reply = handler(request);
      return {
        statusCode: reply.status ?? 200,
        data: reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)),
        responseOptions: { headers: { 'content-type': 'application/json', ...reply.headers } },
      };
    })
    .persist();
  return { agent, requests };
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
