import type { IncomingMessage, ServerResponse } from 'node:http';
import { type MockApi, serveApi } from './api-exchange';
import { CancellableSleeps } from './cancellable-sleeps';
import type { FaultSwitches } from './fault-switches';
import { type LoopbackServer, startLoopbackServer } from './loopback-server';
import type { MockCounters } from './mock-counters';
import type { RoutePattern } from './route-match';

export interface MockServiceOptions<R extends RoutePattern> {
  /** 0 (default) picks a free port. */
  port?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** Names the mock in the plain-text 500 a bug of its own produces, e.g. `mock roster`. */
  name: string;
  /** The clock of the request log (latency and hangs wait real time). */
  now: () => number;
  faults: FaultSwitches;
  counters: MockCounters;
  /** The mock's API; `baseUrl()` is the address it listens on, once it does. */
  api(baseUrl: () => string): MockApi<R>;
  /** The test-only control surface under `/__mock/`: never logged, counted, limited or faulted. */
  control?(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/** Starts a mock service on loopback: its API behind the shared transport and faults. Resolves once it listens. */
export async function startMockService<R extends RoutePattern>(
  options: MockServiceOptions<R>,
): Promise<LoopbackServer> {
  let url = '';
  const api = options.api(() => url);
  const sleeps = new CancellableSleeps();
  const deps = { counters: options.counters, faults: options.faults, now: options.now, sleep: sleeps.sleep };
  const { control } = options;
  const server = await startLoopbackServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    name: options.name,
    handle: (req, res) => {
      const path = new URL(req.url ?? '/', 'http://mock.invalid').pathname;
      return control && path.startsWith('/__mock/') ? control(req, res, path) : serveApi(deps, api, req, res);
    },
    // Latency waits end with the server.
    beforeClose: () => sleeps.cancelAll(),
  });
  url = server.url;
  return server;
}
