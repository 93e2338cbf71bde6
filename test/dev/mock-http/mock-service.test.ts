import { afterEach, describe, expect, it } from 'vitest';
import { errorFields, MockApiError } from '../../../dev/mock-http/api-error';
import { foundRoute, type MockApi } from '../../../dev/mock-http/api-exchange';
import { FaultSwitches } from '../../../dev/mock-http/fault-switches';
import type { LoopbackServer } from '../../../dev/mock-http/loopback-server';
import { MockCounters } from '../../../dev/mock-http/mock-counters';
import { startMockService } from '../../../dev/mock-http/mock-service';
import { request } from './http';

interface Route {
  method: string;
  pattern: string;
  reply(): unknown;
}

/** A small API on the shared mechanism: one route that answers, one that throws a bug of its own. */
function exampleApi(baseUrl: () => string): MockApi<Route> {
  const api: MockApi<Route> = {
    routes: [
      { method: 'GET', pattern: '/things/:id', reply: () => ({ at: baseUrl() }) },
      {
        method: 'GET',
        pattern: '/broken',
        reply: () => {
          throw new Error('a bug in the mock');
        },
      },
    ],
    logsWrongMethod: true,
    keyOf: (token) => token.split('_')[1] ?? null,
    bodyLimit: 100,
    invalidBody: (field, reason) => new MockApiError('invalid', 422, `${field} ${reason}`),
    error: (code, message) =>
      new MockApiError(code, { not_found: 404, method_not_allowed: 405, internal: 500 }[code], message),
    answer: async (exchange) => {
      const { route, params } = foundRoute(api, exchange, exchange.url.pathname);
      return { status: 200, body: { id: params.id, ...(route.reply() as object) } };
    },
    failureBody: (error, requestId) => ({ failed: errorFields(error), requestId }),
  };
  return api;
}

describe('startMockService', () => {
  let server: LoopbackServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  async function start(control?: (path: string) => unknown) {
    const faults = new FaultSwitches();
    const counters = new MockCounters();
    server = await startMockService({
      name: 'mock example',
      now: () => 1000,
      faults,
      counters,
      api: exampleApi,
      ...(control
        ? {
            control: async (_req, res, path) => {
              res.end(JSON.stringify(control(path)));
            },
          }
        : {}),
    });
    return { url: server.url, faults, counters };
  }

  it("serves the API's answer, knowing its own address, and logs the request by route and key", async () => {
    const { url, counters } = await start();
    const reply = await request(`${url}/things/7`, { key: 'ex_k1_secret' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ id: '7', at: url });
    expect(reply.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(counters.log).toMatchObject([
      {
        time: 1000,
        endpoint: 'GET /things/:id',
        keyId: 'k1',
        status: 200,
        requestId: reply.headers.get('x-request-id'),
      },
    ]);
  });

  it("answers failures in the API's envelope: 404, 405 with Allow, and a bug of its own as internal", async () => {
    const { url, counters } = await start();
    const missing = await request(`${url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      failed: { code: 'not_found', message: 'No such endpoint: /nowhere' },
    });
    const wrong = await request(`${url}/things/7`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const broken = await request(`${url}/broken`);
    expect(broken.status).toBe(500);
    expect(broken.json).toEqual({
      failed: {
        code: 'internal',
        message: `Internal error; quote request id ${broken.headers.get('x-request-id')} to support`,
      },
      requestId: broken.headers.get('x-request-id'),
    });
    expect(counters.log.map((e) => [e.endpoint, e.status])).toEqual([
      ['unmatched', 404],
      ['DELETE /things/7', 405],
      ['GET /broken', 500],
    ]);
  });

  it("plays the transport faults in front of the API, and cuts the API's JSON when told", async () => {
    const { url, faults, counters } = await start();
    faults.failNext(1, 503);
    const proxied = await request(`${url}/things/1`);
    expect(proxied.status).toBe(503);
    expect(proxied.headers.get('content-type')).toContain('text/html');
    faults.malformedJson(1);
    const cut = await request(`${url}/things/2`);
    expect(cut.status).toBe(200);
    expect(cut.json).toBeNull();
    const whole = JSON.stringify({ id: '2', at: url });
    expect(cut.text).toBe(whole.slice(0, Math.floor(whole.length / 2)));
    expect((await request(`${url}/things/3`)).json).toMatchObject({ id: '3' });
    expect(counters.log.map((e) => e.status)).toEqual([503, 200, 200]);
  });

  it('hands /__mock/ paths to the control surface, unlogged; without one they are the API’s', async () => {
    const controlled = await start((path) => ({ control: path }));
    expect((await request(`${controlled.url}/__mock/counters`)).json).toEqual({
      control: '/__mock/counters',
    });
    expect(controlled.counters.total).toBe(0);
    await server?.close();
    const plain = await start();
    expect((await request(`${plain.url}/__mock/counters`)).status).toBe(404);
    expect(plain.counters.total).toBe(1);
  });
});
