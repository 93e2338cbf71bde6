import { z } from 'zod';
import { FxServer } from '../../../dev/emulator';
import type { TestDatabase } from '../../../dev/mariadb';
import { OxmysqlCalls, type OxmysqlExports } from '../../../src/features/share/fivem/oxmysql-calls';
import { OxmysqlShareStore } from '../../../src/features/share/fivem/oxmysql-store';
import type { SchemaStep } from '../../../src/features/share/fivem/store-schema';
import type { ShareSchemas } from '../../../src/features/share/share-store';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { type Clock, systemClock } from '../../../src/platform/ports';
import { expectNoUnhandledRejections } from '../../integration/harness';
import { testDatabase } from '../../share-db/mariadb';
import { attachDatabase, type ServerDatabase } from '../../share-db/server-database';

export interface TestRecord {
  name: string;
  rank: number;
}
export interface TestPosition {
  at: string;
}

export const schemas: ShareSchemas<TestRecord, TestPosition> = {
  record: z.object({ name: z.string(), rank: z.number() }),
  auditPosition: z.object({ at: z.string() }),
};

export const API_KEY = 'rk_live01_s3cretS3cretS3cret';
export const KEY_HASH = shareKeyHash(API_KEY);

export type TestStore = OxmysqlShareStore<TestRecord, TestPosition>;

export interface StoreOptions {
  keyHash?: string;
  schema?: readonly SchemaStep[];
  /** What the store calls (default: this server's `exports.oxmysql`). */
  exports?: () => OxmysqlExports | undefined;
  /** The clock the 2 s bound is kept on (default: the host's). */
  clock?: Clock;
}

/** One emulated server on the shared database: its own oxmysql, pool and link. */
export interface ShareServer {
  server: FxServer;
  database: ServerDatabase;
  /** `exports.oxmysql` as a resource of this server calls it. */
  exports: OxmysqlExports;
  store(options?: StoreOptions): TestStore;
  /** oxmysql's console lines. */
  oxLog(): string;
}

/** A community's database and servers on it, each with the oxmysql stand-in. */
export class ShareDatabase {
  readonly servers: ShareServer[] = [];

  private constructor(readonly db: TestDatabase) {}

  static async create(): Promise<ShareDatabase> {
    return new ShareDatabase(await testDatabase());
  }

  async server(): Promise<ShareServer> {
    const server = new FxServer();
    await server.start();
    const database = await attachDatabase(server, { db: this.db });
    const caller = server.createScriptResource('roster');
    const exports = caller.exports.oxmysql as unknown as OxmysqlExports;
    const shareServer: ShareServer = {
      server,
      database,
      exports,
      store: (options = {}) =>
        new OxmysqlShareStore({
          calls: new OxmysqlCalls({
            exports: options.exports ?? (() => exports),
            resource: 'roster',
            clock: options.clock ?? systemClock,
          }),
          keyHash: options.keyHash ?? KEY_HASH,
          schemas,
          ...(options.schema ? { schema: options.schema } : {}),
        }),
      oxLog: () => server.log.of('oxmysql').join('\n'),
    };
    this.servers.push(shareServer);
    return shareServer;
  }

  /** Rows behind the servers' backs. */
  query(statement: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
    return this.db.query(statement, values) as Promise<Record<string, unknown>[]>;
  }

  async close(): Promise<void> {
    for (const { server, database } of this.servers) {
      server.stop();
      await database.close();
      expectNoUnhandledRejections(server);
    }
    await this.db.drop();
  }
}

export const member = (memberId: string, name: string, readAt: number, rank = 1) => ({
  memberId,
  license: `license:${memberId.padStart(40, '0')}`,
  record: { name, rank },
  readAt,
});

/** Polls an asynchronous check until it answers something (as `eventually` does a synchronous one). */
export async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
