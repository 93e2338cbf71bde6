import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { MariaDbCredentials } from './server';

/** Something that can be let go of early (a lock held on purpose). */
export interface Held {
  release(): Promise<void>;
}

/**
 * One database of its own on a shared server, so test files never see each other's tables. A
 * connection of its own (`query`) lets a test read and write rows behind the resource's back.
 */
export class TestDatabase {
  private constructor(
    readonly name: string,
    readonly credentials: MariaDbCredentials,
    private readonly connection: mysql.Connection,
    /** Milliseconds CREATE DATABASE and the first connection took. */
    readonly createdInMs: number,
  ) {}

  /** Creates a database with a random name (`prefix_<hex>`). */
  static async create(credentials: MariaDbCredentials, prefix = 'roster_test'): Promise<TestDatabase> {
    const began = performance.now();
    const name = `${prefix}_${randomBytes(6).toString('hex')}`;
    const admin = await connect(credentials);
    try {
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
    } finally {
      await admin.end();
    }
    const connection = await connect(credentials, name);
    return new TestDatabase(name, credentials, connection, Math.round(performance.now() - began));
  }

  /**
   * oxmysql's URI form for this database; `overrides` point it elsewhere (a DatabaseLink's port)
   * or spoil it (a wrong password).
   */
  connectionString(
    overrides: { host?: string; port?: number; password?: string; user?: string } = {},
  ): string {
    const { host, port, user, password } = { ...this.credentials, ...overrides };
    return `mysql://${user}:${password}@${host}:${port}/${this.name}`;
  }

  /** Runs one statement on the test's own connection (`?` placeholders) and gives mysql2's result. */
  async query<T = unknown>(sql: string, values: unknown[] = []): Promise<T> {
    const [result] = await this.connection.query(sql, values);
    return result as T;
  }

  /**
   * Holds a write lock on `tables` from another connection until `release` (or `ms` later when
   * given): every statement that reads or writes them waits, as behind a long statement, while the
   * server goes on answering everything else.
   */
  async lockTables(tables: readonly string[], ms?: number): Promise<Held> {
    const holder = await connect(this.credentials, this.name);
    await holder.query(`LOCK TABLES ${tables.map((t) => `\`${t}\` WRITE`).join(', ')}`);
    let released: Promise<void> | null = null;
    const timer = ms === undefined ? null : setTimeout(() => void release(), ms);
    const release = (): Promise<void> => {
      if (timer) clearTimeout(timer);
      released ??= holder
        .query('UNLOCK TABLES')
        .then(() => holder.end())
        .catch(() => holder.destroy());
      return released;
    };
    return { release };
  }

  /** Drops the database and closes the test's connection. */
  async drop(): Promise<void> {
    await this.connection.end().catch(() => {});
    const admin = await connect(this.credentials);
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${this.name}\``);
    } finally {
      await admin.end();
    }
  }
}

function connect(credentials: MariaDbCredentials, database?: string): Promise<mysql.Connection> {
  const { host, port, user, password } = credentials;
  return mysql.createConnection({
    host,
    port,
    user,
    password,
    connectTimeout: 10_000,
    ...(database ? { database } : {}),
  });
}
