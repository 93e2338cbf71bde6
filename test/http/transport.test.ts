import { inspect } from 'node:util';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { RosterNetworkError, RosterResponseError } from '../../src/http/roster-api-error';
import { API_KEY, FakeClock, fail, fakeRoster, ok, outcome, testClient } from '../roster/client/fake-roster';
import { settle } from './limiter/fake-clock';

/** A transport that accepts requests and never answers, remembering their abort signals. */
function hangingDispatcher(hangIn: 'headers' | 'body') {
  const signals: AbortSignal[] = [];
  const dispatcher = {
    request(options: { signal?: AbortSignal }) {
      if (options.signal) signals.push(options.signal);
      if (hangIn === 'headers') return new Promise(() => {});
      return Promise.resolve({
        statusCode: 200,
        headers: {},
        body: { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }), destroy() {} },
      });
    },
    close: async () => {},
  };
  return { dispatcher: dispatcher as unknown as Dispatcher, signals };
}

describe('transport', () => {
  it('sends the key as a Bearer token and names the resource and version in User-Agent', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, () => ok({ community: { name: 'LSRP' }, scopes: [] }));
    const { api } = testClient(clock, agent);
    await api.whoami();
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(requests[0]!.headers['user-agent']).toBe('roster-fivem/1.2.3');
    expect(requests[0]!.path).toBe('/api/v1/whoami');
    await api.close();
  });

  it.each(['headers', 'body'] as const)(
    'a request hanging in its %s fails at api.timeoutMs',
    async (hangIn) => {
      const clock = new FakeClock();
      const { dispatcher, signals } = hangingDispatcher(hangIn);
      const { api } = testClient(clock, dispatcher, { timeoutMs: 5000, retry: { maxRetries: 0 } });
      let error: unknown;
      api.get('/api/v1/members').catch((caught: unknown) => {
        error = caught;
      });
      await clock.advance(4999);
      expect(error).toBeUndefined();
      await clock.advance(1);
      expect(error).toBeInstanceOf(RosterNetworkError);
      expect((error as RosterNetworkError).code).toBe('timeout');
      expect((error as Error).message).toMatch(/within 5000 ms \(api\.timeoutMs\)/);
      expect(signals[0]!.aborted).toBe(true);
      await api.close();
    },
  );

  it('encodes every query value', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, () => ok([]));
    const { api } = testClient(clock, agent);
    await api.get('/api/v1/members', { q: 'a&b=c #1', status: ['ACTIVE', 'LOA'] });
    expect(requests[0]!.query.get('q')).toBe('a&b=c #1');
    expect(requests[0]!.query.getAll('status')).toEqual(['ACTIVE', 'LOA']);
    await expect(api.get('/api/v1/members?x=1')).rejects.toThrow(TypeError);
    await expect(api.getRaw('../etc')).rejects.toThrow(TypeError);
    await api.close();
  });

  it('getRaw accepts a plain JSON body such as openapi.json', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => ({ body: { openapi: '3.1.0', paths: {} } }));
    const { api } = testClient(clock, agent);
    await expect(api.getRaw('/api/v1/openapi.json')).resolves.toEqual({ openapi: '3.1.0', paths: {} });
    await expect(api.get('/api/v1/openapi.json')).rejects.toThrow(/not the roster API's JSON/);
    await api.close();
  });
});

describe('the API key stays secret', () => {
  it('never appears in errors, log lines, or a dump of the client', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, (request) =>
      request.path === '/api/v1/whoami'
        ? fail(401, 'invalid_api_key', `Key ${API_KEY} is revoked`)
        : { status: 502, text: `<html>bad gateway for ${API_KEY}</html>` },
    );
    const { api, lines } = testClient(clock, agent);
    const errors: unknown[] = [];
    errors.push((await outcome(clock, api.get('/api/v1/members'))).error);
    errors.push((await outcome(clock, api.whoami())).error);
    errors.push((await outcome(clock, api.lookup(`license:${'a'.repeat(40)}`))).error);
    const dumps = [
      inspect(api, { depth: 20, showHidden: true }),
      JSON.stringify(api),
      JSON.stringify(api.limiterState()),
      ...errors.map((error) => inspect(error, { depth: 20, showHidden: true })),
      ...errors.map((error) => JSON.stringify(error)),
      ...errors.map((error) => String((error as Error).stack)),
      ...lines.map((line) => line.message),
    ];
    for (const dump of dumps) {
      expect(dump).not.toContain(API_KEY);
      expect(dump).not.toContain('Sup3rS3cret');
    }
    expect(errors.every((error) => error instanceof Error)).toBe(true);
    await api.close();
  });

  it('close() clears every timer', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, () => fail(401, 'invalid_api_key'));
    const { api } = testClient(clock, agent);
    await outcome(clock, api.get('/api/v1/members'));
    expect(clock.pendingTimers).toBeGreaterThan(0); // the key re-check
    await api.close();
    await settle();
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('answer size', () => {
  it('an answer over the cap is an unreadable answer, read no further and never retried', async () => {
    const clock = new FakeClock();
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const { agent, requests } = fakeRoster(clock, () => ({ status: 200, text: huge }));
    const { api } = testClient(clock, agent);
    const result = await outcome(clock, api.get('/api/v1/members'), 500);
    expect(result.error).toBeInstanceOf(RosterResponseError);
    expect((result.error as RosterResponseError).code).toBe('malformed_response');
    expect((result.error as Error).message).toMatch(/more than 4 MB; the resource stopped reading it/);
    expect(requests).toHaveLength(1);
    await api.close();
  });
});
