import type { FieldPacket } from 'mysql2';
import type { PoolConnection } from 'mysql2/promise';
import { reportQueryError } from './errors';
import { normaliseArguments } from './placeholders';
import { namedPlaceholders, waitForPool } from './pool';
import { textBinaries } from './responses';

/** oxmysql gives the caller's function 30 s; a statement after that fails, and so does the commit. */
const TIME_LIMIT_MS = 30_000;

type Statement = (query: string, params?: unknown) => Promise<unknown>;

/**
 * `startTransaction(fn)` (oxmysql src/database/startTransaction.ts, marked experimental: each
 * call prints a warning): BEGIN on one connection, then `fn(query)` runs the caller's statements
 * on it (`query(sql, params)` answers mysql2's raw result and rejects with the SQL, its
 * parameters and the error). It commits unless `fn` answers false; a failure rolls back, prints
 * the error and answers false.
 */
export async function startTransaction(
  resource: string | null,
  work: (query: Statement) => unknown,
): Promise<boolean> {
  console.warn('startTransaction is "experimental" and may receive breaking changes.');
  const pool = await waitForPool();
  const connection = await pool.getConnection();
  let closed = false;
  const timer = setTimeout(() => {
    closed = true;
  }, TIME_LIMIT_MS);
  let committed = false;
  try {
    await connection.beginTransaction();
    const verdict = await work((query, params) => statement(closed ? null : connection, query, params));
    if (closed) throw new Error('Transaction has timed out after 30 seconds.');
    committed = verdict !== false;
    if (committed) await connection.commit();
    else await connection.rollback();
  } catch (error) {
    await connection.rollback().catch(() => {});
    committed = false;
    reportQueryError({ resource, callback: undefined, promise: true }, error);
  } finally {
    clearTimeout(timer);
    closed = true;
    connection.release();
  }
  return committed;
}

async function statement(
  connection: PoolConnection | null,
  query: string,
  params: unknown,
): Promise<unknown> {
  const [sql, values] = normaliseArguments(query, params, namedPlaceholders());
  try {
    if (!connection) throw new Error('Connection used by transaction timed out after 30 seconds.');
    const [result, fields] = (await connection.query(sql, values)) as [unknown, FieldPacket[] | undefined];
    return textBinaries(result, fields);
  } catch (error) {
    throw new Error(`Query: ${sql}\n${JSON.stringify(values)}\n${(error as Error).message}`);
  }
}
