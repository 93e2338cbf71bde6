import { connect, createServer, type Server, type Socket } from 'node:net';

type LinkState = 'open' | 'stalled' | 'refusing';

/** One client connection and its connection to the server, and what a stall held back. */
interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
  readonly held: { readonly to: Socket; readonly chunk: Buffer }[];
}

/**
 * A loopback TCP link between a client (oxmysql) and the server, which a test turns bad without
 * touching the server that other test files share:
 * - `stall()`: bytes stop moving both ways (kept, not lost): statements in flight and new logins
 *   wait, as with a database that stopped answering;
 * - `refuse()`: open connections are cut and new ones refused, as with a server that went away;
 * - `restore()`: what a stall held goes through, and connections are accepted again.
 */
export class DatabaseLink {
  private state: LinkState = 'open';
  private readonly pairs = new Set<Pair>();
  private listener: Server | null = null;
  private listenPort = 0;

  private constructor(
    private readonly target: { readonly host: string; readonly port: number },
    readonly host = '127.0.0.1',
  ) {}

  /** Opens a link on a free loopback port to `target`. */
  static async open(target: { host: string; port: number }): Promise<DatabaseLink> {
    const link = new DatabaseLink(target);
    await link.listen(0);
    return link;
  }

  get port(): number {
    return this.listenPort;
  }

  get status(): LinkState {
    return this.state;
  }

  stall(): void {
    if (this.state === 'open') this.state = 'stalled';
  }

  /** Cuts every connection and stops listening: a login gets ECONNREFUSED until `restore`. */
  async refuse(): Promise<void> {
    if (this.state === 'refusing') return;
    this.state = 'refusing';
    this.cutAll();
    await this.unlisten();
  }

  async restore(): Promise<void> {
    if (this.state === 'refusing') await this.listen(this.listenPort);
    this.state = 'open';
    for (const pair of this.pairs) {
      for (const { to, chunk } of pair.held.splice(0)) to.write(chunk);
    }
  }

  async close(): Promise<void> {
    this.state = 'refusing';
    this.cutAll();
    await this.unlisten();
  }

  private listen(port: number): Promise<void> {
    const listener = createServer((client) => this.accept(client));
    this.listener = listener;
    return new Promise((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, this.host, () => {
        const address = listener.address();
        this.listenPort = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  }

  private unlisten(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    return new Promise((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    const pair: Pair = { client, upstream, held: [] };
    this.pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (this.state === 'stalled') pair.held.push({ to, chunk });
        else to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  private cutAll(): void {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }
}
