import type { FxServer } from '../../dev/emulator';
import { DatabaseLink, type TestDatabase } from '../../dev/mariadb';
import { oxmysqlConnected, startOxmysql } from '../../dev/stand-ins/oxmysql';
import { testDatabase } from './mariadb';

/** A server's database: its rows (`db.query`), and the link oxmysql reaches it through. */
export interface ServerDatabase {
  readonly db: TestDatabase;
  /** `stall()`, `refuse()`, `restore()`: the database as this server sees it. */
  readonly link: DatabaseLink;
  close(): Promise<void>;
}

export interface ServerDatabaseOptions {
  /** An existing database (several servers of a community share one); default a new one. */
  readonly db?: TestDatabase;
  /** Between two connection tries after a refusal (oxmysql: 30 s). */
  readonly retryMs?: number;
}

/**
 * Gives an emulated server a database as a community's server has one: a database on the test
 * MariaDB and the `oxmysql` resource on `mysql_connection_string`, connected before this
 * resolves. Start it before the resources that use it, as server.cfg ensures oxmysql first.
 */
/** How long oxmysql's first connection is waited for before oxmysql is started again. */
const FIRST_TRY_MS = 15_000;

export async function attachDatabase(
  server: FxServer,
  options: ServerDatabaseOptions = {},
): Promise<ServerDatabase> {
  const db = options.db ?? (await testDatabase());
  const link = await DatabaseLink.open(db.credentials);
  await startOxmysql(server, {
    connectionString: db.connectionString({ host: link.host, port: link.port }),
    ...(options.retryMs ? { retryMs: options.retryMs } : {}),
  });
  try {
    await oxmysqlConnected(server, FIRST_TRY_MS);
  } catch {
    // Seen twice on a busy machine in CI: the first connection neither answered nor failed. The
    // oxmysql resource is started again (a new pool, a new connection through the link), once.
    console.warn('oxmysql did not connect within 15 s: starting it again');
    server.restartResource('oxmysql');
    await oxmysqlConnected(server);
  }
  return {
    db,
    link,
    async close() {
      await link.close();
      if (!options.db) await db.drop();
    },
  };
}
