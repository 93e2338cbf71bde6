import { rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Decision, FxServer, type ScriptResource } from '../../../dev/emulator';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { expectNoUnhandledRejections, resourceFolder } from '../harness';
import { stalledMs } from '../loop-stalls';
import { keyLeaks } from './cells';
import { WireLog } from './wire';

/** Every row's service: same seed, so a second mock on the same port holds the same keys and members. */
const MOCK = { members: 200, seed: 7 } as const;

export const startRowMock = (port = 0) => startMockRoster({ port, ...MOCK });

/** A decision and how long the player waited for it. */
export interface Timed {
  name: string;
  decision: Decision;
  waitedMs: number;
  /** How long the test process's event loop stood still meanwhile (a busy machine, not the resource). */
  stalledMs: number;
}

/**
 * A loopback HTTP server in front of the mock that, while `teapot` is on, answers member lookups
 * with a well-formed error envelope carrying a code the API document does not list. The mock has
 * no switch for that.
 */
export class TeapotProxy {
  teapot = false;
  /** Arrival times of the requests answered here (the mock logs the ones passed through). */
  readonly answered: number[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(upstream: string): Promise<TeapotProxy> {
    const target = new URL(upstream);
    let proxy: TeapotProxy | undefined;
    const server = createServer((req, res) => {
      if (proxy?.teapot && req.url?.startsWith('/api/v1/members')) {
        proxy.answered.push(Date.now());
        const requestId = `req_teapot_${proxy.answered.length}`;
        res.writeHead(418, { 'content-type': 'application/json', 'x-request-id': requestId });
        res.end(
          JSON.stringify({
            success: false,
            error: { code: 'teapot', message: "I'm a teapot" },
            meta: { request_id: requestId },
          }),
        );
        return;
      }
      const forward = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TeapotProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** One row's world: the mock service (replaced when a row restarts it), the emulator, the resource folder. */
export class Rig {
  /** Every mock this row talked to, oldest first (a row that takes the service down starts another). */
  readonly mocks: MockRoster[];
  /** `[event, ...args]` of every roster event another resource received, as JSON. */
  readonly events: string[] = [];
  readonly token: string;
  readonly keyId: string;
  /** What the resource's client wrote to the service (or the proxy) and had answered, as it happened. */
  readonly wire: WireLog;
  private readonly down = new Set<MockRoster>();
  private downPort = 0;

  private constructor(
    mock: MockRoster,
    readonly server: FxServer,
    readonly folder: string,
    readonly caller: ScriptResource,
    readonly proxy: TeapotProxy | undefined,
  ) {
    this.mocks = [mock];
    this.token = mock.keys.full;
    this.keyId = mock.keyId('full');
    // A restarted service takes the port it had: one origin for the whole row.
    const origin = proxy?.url ?? mock.url;
    this.wire = new WireLog((each) => each === origin);
    for (const event of ['roster:ready', 'roster:playerLoaded', 'roster:playerUpdated']) {
      caller.on(event, (...args: unknown[]) => this.events.push(JSON.stringify([event, ...args])));
    }
  }

  static async start(config: Record<string, unknown>, withProxy: boolean): Promise<Rig> {
    const mock = await startRowMock();
    const proxy = withProxy ? await TeapotProxy.start(mock.url) : undefined;
    const folder = resourceFolder(config);
    const server = new FxServer({
      convars: { roster_api_key: mock.keys.full, roster_base_url: proxy?.url ?? mock.url },
      convarPermissions: [['roster', 'roster_api_key']],
    });
    await server.start();
    server.startResource('roster', folder);
    return new Rig(mock, server, folder, server.createScriptResource('caller'), proxy);
  }

  get mock(): MockRoster {
    return this.mocks.at(-1)!;
  }

  /** Closes the service: its port is then a closed loopback port. */
  async serviceDown(): Promise<void> {
    this.downPort = Number(new URL(this.mock.url).port);
    await this.mock.close();
    this.down.add(this.mock);
  }

  /** Starts the service again on the port it had, with the same keys and members. */
  async serviceUp(): Promise<void> {
    this.mocks.push(await startRowMock(this.downPort));
  }

  /** The roster resource's own log, one line each. */
  rosterLog(): string[] {
    return this.server.log.of('roster');
  }

  connect(license: string, name: string): Promise<Timed> {
    const started = Date.now();
    const connection = this.server.connectPlayer({ name, identifiers: [license, 'ip:127.0.0.1'] });
    return connection.decision.then((decision) => {
      const now = Date.now();
      return { name, decision, waitedMs: now - started, stalledMs: stalledMs(started, now) };
    });
  }

  /** What the gate logged as the basis of a player's decision, e.g. `roster` or `service unavailable, policy`. */
  basisOf(name: string): string | undefined {
    const pattern = new RegExp(`^${name} (?:admitted|refused) \\((.*)\\)$`);
    for (const line of this.rosterLog()) {
      const found = pattern.exec(line);
      if (found) return found[1];
    }
    return undefined;
  }

  /** What other resources see of a player: the export and the state bag. */
  seenAs(id: number): { exported: string | null; bag: string | null } {
    const exported = this.caller.exports.roster!.getMember!(id) as { id?: string } | null;
    const bag = this.caller.eval<{ id?: string } | null>(`Player(${id}).state.roster`);
    return { exported: exported?.id ?? null, bag: bag?.id ?? null };
  }

  /** Arrival times of every request that carried the row's key, at any mock or the proxy. */
  requestTimes(): number[] {
    const times = this.mocks.flatMap((m) => m.counters.log.filter((e) => e.keyId === this.keyId));
    return [...times.map((e) => e.time), ...(this.proxy?.answered ?? [])].sort((a, b) => a - b);
  }

  /** Where the key (or its secret part) shows up: log lines, events, state bags, client events, files. */
  keyLeaks(): string[] {
    return keyLeaks(this.server, this.events, this.folder, [this.token]);
  }

  async close(): Promise<void> {
    this.wire.stop();
    this.server.stop();
    await this.proxy?.close();
    await Promise.all(this.mocks.filter((m) => !this.down.has(m)).map((m) => m.close()));
    expectNoUnhandledRejections(this.server);
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** The most requests that arrived within any 60 s span. */
export function maxInRolling60s(times: readonly number[]): number {
  let max = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= 60_000) start++;
    max = Math.max(max, end - start + 1);
  }
  return max;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` on real time until it holds or `timeoutMs` passes; returns whether it held. */
export async function holdsWithin(check: () => boolean, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > until) return false;
    await sleep(everyMs);
  }
}
