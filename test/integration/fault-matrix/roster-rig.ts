import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockMember } from '../../../dev/mock-roster/records';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { type Emulator, ROSTER_EVENTS, RowRig, startEmulator, type Timed } from './rig';

/** Every row's service: same seed, so a second mock on the same port holds the same keys and members. */
const MOCK = { members: 200, seed: 7 } as const;

const startRowMock = (port = 0) => startMockRoster({ port, ...MOCK });

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

/** The members a roster row plays: two stay online, one is known and leaves, one joins first during the fault. */
export interface RosterCast {
  onlineA: MockMember;
  onlineB: MockMember;
  known: MockMember;
  unseen: MockMember;
  suspended: MockMember;
}

/** One roster row's world: the mock service (replaced when a row restarts it), the emulator, the resource folder. */
export class RosterRig extends RowRig {
  /** Every mock this row talked to, oldest first (a row that takes the service down starts another). */
  readonly mocks: MockRoster[];
  readonly token: string;
  readonly keyId: string;
  readonly cast: RosterCast;
  /** ACTIVE members no step of the row has used yet. */
  private readonly fresh: MockMember[];
  private readonly down = new Set<MockRoster>();
  private downPort = 0;

  private constructor(
    mock: MockRoster,
    emulator: Emulator,
    readonly proxy: TeapotProxy | undefined,
  ) {
    // A restarted service takes the port it had: one origin for the whole row.
    super(emulator, proxy?.url ?? mock.url, ROSTER_EVENTS);
    this.mocks = [mock];
    this.token = mock.keys.full;
    this.keyId = mock.keyId('full');
    const { members } = mock.data;
    const [onlineA, onlineB, known, unseen, ...fresh] = members.filter((m) => m.status === 'ACTIVE');
    const suspended = members.find((m) => m.status === 'SUSPENDED');
    if (!onlineA || !onlineB || !known || !unseen || !suspended)
      throw new Error('the mock has too few members');
    this.cast = { onlineA, onlineB, known, unseen, suspended };
    this.fresh = fresh;
  }

  static async start(config: Record<string, unknown>, withProxy: boolean): Promise<RosterRig> {
    const mock = await startRowMock();
    const proxy = withProxy ? await TeapotProxy.start(mock.url) : undefined;
    const emulator = await startEmulator(
      config,
      { roster_api_key: mock.keys.full, roster_base_url: proxy?.url ?? mock.url },
      ['roster_api_key'],
    );
    return new RosterRig(mock, emulator, proxy);
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

  /** An ACTIVE member's license not used yet in this row. */
  freshLicense(): string {
    const member = this.fresh.shift();
    if (!member) throw new Error('out of roster members');
    return member.gameLicense;
  }

  connect(license: string, name: string): Promise<Timed> {
    return this.connectWith(name, [license, 'ip:127.0.0.1']);
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

  protected keys(): string[] {
    return [this.token];
  }

  protected async closeServices(): Promise<void> {
    await this.proxy?.close();
    await Promise.all(this.mocks.filter((m) => !this.down.has(m)).map((m) => m.close()));
  }
}
