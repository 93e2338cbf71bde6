// `npm start -- --share`: two servers of one community sharing one roster through their database,
// as an owner runs them: a MariaDB of the sandbox's own (dev/mariadb), the oxmysql stand-in on
// each server, `share.enabled` in both config.json files. One server reads the roster from the
// service, the other follows the database into its own mirror without asking the service for the
// roster; `roster status` on both shows who reads. Apart from the main sandbox so that run needs
// no database.
import { rmSync } from 'node:fs';
import { startCountingProxy } from '../bench/counting-proxy';
import { FxServer } from '../emulator';
import { MariaDbMissingError, startMariaDb, TestDatabase } from '../mariadb';
import { startMockRoster } from '../mock-roster/server';
import { oxmysqlConnected, startOxmysql } from '../stand-ins/oxmysql';
import { expectThat, waitFor } from './expectation';
import { joiner } from './joins';
import { consoleAnswer } from './log-follower';
import { problemLines } from './log-problems';
import { ensureBundle, repoRoot, resourceFolder } from './resource-folder';

/** What a follower's mirror says once it holds every row the reader wrote. */
const SHARED_COMPLETE = /the roster mirror holds the shared roster's (\d+) members/;
/** What the reader's mirror says once its first read completed. */
const READ_COMPLETE = /the roster mirror holds (\d+) members/;

/** Said instead of a stack when the machine has no MariaDB server. */
export const MARIADB_MISSING =
  'npm start -- --share runs a MariaDB server of its own, and mariadbd is not installed here: install it with `sh dev/mariadb/install.sh` (Debian: the mariadb-server package), then run it again.';

/** server.cfg's two lines that let roster grant its principals (else a warning on both servers). */
const PRINCIPAL_ACES: [string, string][] = [
  ['resource.roster', 'command.add_principal'],
  ['resource.roster', 'command.remove_principal'],
];

interface SharingServer {
  name: string;
  server: FxServer;
  folder: string;
}

/**
 * Runs the two servers, printing what an owner sees; false when the machine has no MariaDB (said
 * in one line). Throws SandboxMismatch when sharing misbehaves.
 */
export async function runShareSandbox(print: (line: string) => void = console.log): Promise<boolean> {
  const root = repoRoot(import.meta.dirname);
  if (ensureBundle(root)) print('built dist/server.js (it was missing or older than src/)');
  let mariadb: Awaited<ReturnType<typeof startMariaDb>>;
  try {
    mariadb = await startMariaDb();
  } catch (error) {
    if (error instanceof MariaDbMissingError) {
      print(MARIADB_MISSING);
      return false;
    }
    throw error;
  }
  const servers: SharingServer[] = [];
  const mock = await startMockRoster({ port: 0, members: 200, seed: 1 });
  // The second server reaches the service through a counter of its own: what it asks shows apart.
  const proxy = await startCountingProxy(mock.url);
  let database: TestDatabase | null = null;
  try {
    database = await TestDatabase.create(mariadb.credentials, 'roster_sandbox');
    print(`mock roster: "${mock.community.name}", ${mock.data.members.length} members, at ${mock.url}`);
    print(`MariaDB: started in ${mariadb.startedInMs} ms, database ${database.name}`);
    print('');
    print("-- both servers' server.cfg (the password cut here) and config.json --");
    const hidden = database.connectionString({ password: '…' });
    for (const line of [
      `set mysql_connection_string "${hidden}"`,
      'set roster_api_key "…"        # the same key on both servers',
      'ensure oxmysql',
      'ensure roster                 # after oxmysql',
    ])
      print(line);
    print('');
    const start = async (name: string, baseUrl: string): Promise<SharingServer> => {
      const config = { share: { enabled: true, serverName: name } };
      const folder = resourceFolder(root, config);
      const server = new FxServer({
        convars: { roster_api_key: mock.keys.full, roster_base_url: baseUrl },
        convarPermissions: [['roster', 'roster_api_key']],
        aces: PRINCIPAL_ACES,
      });
      const running = { name, server, folder };
      servers.push(running);
      await server.start();
      // server.cfg: `set mysql_connection_string …`, `ensure oxmysql` before `ensure roster`.
      await startOxmysql(server, { connectionString: database!.connectionString() });
      await oxmysqlConnected(server);
      server.startResource('roster', folder);
      print(`${name}: oxmysql connected, roster started with config.json ${JSON.stringify(config)}`);
      return running;
    };

    print('-- server-a starts alone: it takes the lease and reads the roster --');
    const a = await start('server-a', mock.url);
    const readA = await waitFor(
      "server-a's first read",
      () => a.server.log.of('roster').find((l) => READ_COMPLETE.test(l) && !SHARED_COMPLETE.test(l)),
      60_000,
    );
    for (const line of sharingLines(a)) print(`[server-a] ${line}`);
    print(`[server-a] ${readA}`);
    const aRequests = mock.counters.log.length;
    print(`server-a asked the service ${aRequests} times to start and read the roster`);

    print('');
    print('-- server-b starts on the same key and database: it follows --');
    const b = await start('server-b', proxy.url);
    const heldB = await waitFor(
      "server-b's copy of the shared roster",
      () => b.server.log.of('roster').find((l) => SHARED_COMPLETE.test(l)),
      30_000,
    ).catch((error: unknown) => {
      // What the follower said instead is the first thing to read.
      for (const line of b.server.log.of('roster')) print(`[server-b] ${line}`);
      throw error;
    });
    for (const line of sharingLines(b)) print(`[server-b] ${line}`);
    print(`[server-b] ${heldB}`);
    const roster = proxy.requests.filter((r) => /\/members|\/assignments|\/audit/.test(r.path));
    print(
      `server-b asked the service ${proxy.requests.length} times (${endpoints(proxy.requests)}): ${roster.length} of them for the roster`,
    );
    expectThat(roster.length === 0, `server-b read the roster itself: ${endpoints(roster)}`);

    print('');
    print('-- a member joins server-b: decided from its copy, no request --');
    const member = mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const before = proxy.requests.length;
    const decision = await joiner(b.server, print)(`Alice (member ${member.id}, ACTIVE)`, 'Alice', [
      member.gameLicense,
      'ip:127.0.0.2',
    ]);
    expectThat(decision.admitted, `the ACTIVE member ${member.id} was refused on server-b`);
    print(`server-b's requests for that join: ${proxy.requests.length - before}`);
    expectThat(proxy.requests.length === before, 'server-b asked the service about a member its copy holds');

    for (const s of [a, b]) {
      print('');
      print(`-- ${s.name}: roster status --`);
      const status = await consoleAnswer(s.server, 'roster status');
      for (const line of status) if (line.resource === 'roster') print(line.text);
    }
    const problems = servers.flatMap((s) => problemLines(s.server.log.entries));
    if (problems.length > 0) {
      print('');
      print(`-- warnings and errors (${problems.length}) --`);
      for (const line of problems.slice(0, 10)) print(line);
    }
    expectThat(
      !problems.some((line) => line.includes('SCRIPT ERROR')),
      'a resource raised a SCRIPT ERROR (printed above)',
    );
    return true;
  } finally {
    for (const s of servers) {
      s.server.stop();
      rmSync(s.folder, { recursive: true, force: true });
    }
    await proxy.close();
    await mock.close();
    await database?.drop().catch(() => {});
    await mariadb.stop();
  }
}

/** The resource's lines about sharing: who reads, who follows. */
function sharingLines(s: SharingServer): string[] {
  return s.server.log.of('roster').filter((l) => l.includes('sharing the roster through the database'));
}

/** `GET /api/v1/me 1, GET /api/v1/ranks 1`: requests counted by method and path. */
function endpoints(requests: readonly { method: string; path: string }[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const endpoint = `${r.method} ${r.path.split('?')[0]}`;
    counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
  }
  return [...counts].map(([endpoint, n]) => `${endpoint} ${n}`).join(', ') || 'none';
}
