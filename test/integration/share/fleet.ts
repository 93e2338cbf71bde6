import { rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FxServer } from '../../../dev/emulator';
import { attachDatabase, type ServerDatabase } from '../../share-db/server-database';
import { eventually, expectNoUnhandledRejections, type Harness, resourceFolder } from '../harness';

/** What a server asked the roster service, as a proxy in front of it saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
}

/** A proxy in front of the mock: what one server asks of the service, apart from the others. */
export async function countingProxy(
  target: string,
): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    seen.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams });
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname.replace(/\/$/, '')}${req.url ?? '/'}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Requests that read the roster: lists of members or assignments, single members, the audit log. */
export function rosterReads(seen: readonly SeenRequest[]): SeenRequest[] {
  return seen.filter(
    (r) =>
      r.path.startsWith('/api/v1/members') ||
      r.path.startsWith('/api/v1/department-assignments') ||
      r.path.startsWith('/api/v1/audit-logs'),
  );
}

/** Another server of the community: its own emulator, the same database, the service through a proxy. */
export interface FleetServer {
  server: FxServer;
  database: ServerDatabase;
  seen: SeenRequest[];
  logText(): string;
  close(): Promise<void>;
}

export async function fleetServer(
  h: Harness,
  config: Record<string, unknown>,
  options: { apiKey?: string } = {},
): Promise<FleetServer> {
  const proxy = await countingProxy(h.mock.url);
  const folder = resourceFolder(config);
  const server = new FxServer({
    convars: { roster_api_key: options.apiKey ?? String(h.mock.keys.full), roster_base_url: proxy.url },
    convarPermissions: [['roster', 'roster_api_key']],
    order: 'registration',
  });
  await server.start();
  if (!h.database) throw new Error('the harness has no database');
  // oxmysql tries a refused database again every 30 s; the tests' servers every second.
  const database = await attachDatabase(server, { db: h.database.db, retryMs: 1_000 });
  server.startResource('roster', folder);
  return {
    server,
    database,
    seen: proxy.seen,
    logText: () => server.log.lines.join('\n'),
    async close() {
      server.stop();
      await database.close();
      await proxy.close();
      rmSync(folder, { recursive: true, force: true });
      expectNoUnhandledRejections(server);
    },
  };
}

/** A join's decision on `server` for `license`. */
export async function joins(server: FxServer, license: string, name = 'Player'): Promise<boolean> {
  const { decision } = server.connectPlayer({ name, identifiers: [license] });
  return (await decision).admitted;
}

/** Runs `roster status` and returns its sharing line. */
export async function sharingLine(server: FxServer): Promise<string> {
  const from = server.log.lines.length;
  server.executeCommand('roster status');
  return eventually(() => server.log.lines.slice(from).find((l) => l.includes('sharing:')));
}
