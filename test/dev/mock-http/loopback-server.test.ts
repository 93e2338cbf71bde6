import { afterEach, describe, expect, it } from 'vitest';
import { CancellableSleeps } from '../../../dev/mock-http/cancellable-sleeps';
import { type LoopbackServer, startLoopbackServer } from '../../../dev/mock-http/loopback-server';
import { request } from './http';

describe('startLoopbackServer', () => {
  let server: LoopbackServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('listens on a free loopback port and serves the handler', async () => {
    server = await startLoopbackServer({
      name: 'mock test',
      handle: async (_req, res) => {
        res.end('hello');
      },
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await request(server.url)).text).toBe('hello');
  });

  it("answers a bug of the mock's own with a plain-text 500 naming the mock", async () => {
    server = await startLoopbackServer({
      name: 'mock test',
      handle: async () => {
        throw new Error('boom');
      },
    });
    const reply = await request(server.url);
    expect(reply.status).toBe(500);
    expect(reply.text).toBe('mock test failure: boom');
  });

  it('closes with a request still hanging, and cancels pending sleeps first', async () => {
    const sleeps = new CancellableSleeps();
    let slept = false;
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const running = await startLoopbackServer({
      name: 'mock test',
      handle: async () => {
        markStarted();
        await sleeps.sleep(60_000);
        slept = true;
      },
      beforeClose: () => sleeps.cancelAll(),
    });
    const hung = request(running.url).catch((error: unknown) => error);
    await started;
    await running.close();
    expect(await hung).toBeInstanceOf(Error);
    expect(slept).toBe(false);
  });
});
