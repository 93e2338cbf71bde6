import mysql, { type Pool, type RowDataPacket } from 'mysql2/promise';
import { type DatabaseConfig, readConfig } from './config';
import { fx, sleep } from './fx';

/**
 * The pool's life (oxmysql src/database/pool.ts and index.ts): made one frame after start; if
 * the server does not answer `SELECT VERSION()`, three lines say why and it tries again 30 s later,
 * for ever. Until then `isReady()` is false and every query waits, without a time limit, for the
 * pool. Once made, the pool is never replaced: a server that goes away later makes each new
 * connection fail (see printLost).
 *
 * Each new connection gets `SET TRANSACTION ISOLATION LEVEL READ COMMITTED` (the
 * `mysql_transaction_isolation_level` convar, 2 by default). Without SESSION that statement only
 * covers the connection's next explicit transaction: the first on each pooled connection runs READ
 * COMMITTED, every later one at the server's default (REPEATABLE READ on MariaDB and MySQL).
 */
let pool: Pool | null = null;
let config: DatabaseConfig | null = null;
let version = '';
let stopped = false;

const ISOLATION: Record<number, string> = {
  1: 'REPEATABLE READ',
  2: 'READ COMMITTED',
  3: 'READ UNCOMMITTED',
  4: 'SERIALIZABLE',
};

/** The emulator's own: how long to wait between two tries (oxmysql: always 30 s). */
const retryMs = () => fx.GetConvarInt('oxmysql_stand_in_retry_ms', 30_000);

export const isReady = (): boolean => pool !== null;

/** `^5[<server version>]`, the prefix of oxmysql's slow-query lines. */
export const serverVersion = (): string => version;

/** Named placeholders are on unless the connection string says `namedPlaceholders=false`. */
export const namedPlaceholders = (): boolean => config?.namedPlaceholders ?? true;

/** Waits for the pool, one frame at a time, for as long as it takes. */
export async function waitForPool(): Promise<Pool> {
  while (!pool) await sleep(0);
  return pool;
}

async function tryToConnect(): Promise<void> {
  // Outside the try, as in oxmysql: a URI that does not parse ends the loop (see start).
  const current = readConfig();
  config = current;
  const isolation = ISOLATION[fx.GetConvarInt('mysql_transaction_isolation_level', 2)] ?? 'READ COMMITTED';
  try {
    const candidate = mysql.createPool(current.options);
    candidate.on('connection', (connection) => {
      connection.query(`SET TRANSACTION ISOLATION LEVEL ${isolation}`);
    });
    const [rows] = await candidate.query<RowDataPacket[]>('SELECT VERSION() as version');
    version = `^5[${rows[0]?.version}]`;
    console.log(`${version} ^2Database server connection established!^0`);
    if (stopped) await candidate.end();
    else pool = candidate;
  } catch (error) {
    const { code, errno, message } = error as { code?: string; errno?: number; message: string };
    const shown = message.includes('auth_gssapi_client')
      ? 'Requested authentication using unknown plugin auth_gssapi_client.'
      : message;
    console.log(
      `^3Unable to establish a connection to the database (${code})!\n^1Error${errno ? ` ${errno}` : ''}: ${shown}^0`,
    );
    const { password, ...shownOptions } = current.options;
    console.log({ ...shownOptions, ...(password ? { password: '******' } : {}) });
  }
}

/** Starts making the pool on the next frame (oxmysql's `setTimeout` without a delay). */
export function startPool(printLost: (error: unknown) => void): void {
  setTimeout(() => {
    (async () => {
      while (!pool && !stopped) {
        await tryToConnect();
        if (!pool && !stopped) await sleep(retryMs());
      }
    })().catch(printLost);
  });
}

/**
 * The resource stops: FXServer frees its whole Node environment, sockets included; the emulator
 * cannot, so the pool is closed here.
 */
export async function stopPool(): Promise<void> {
  stopped = true;
  const current = pool;
  pool = null;
  await current?.end().catch(() => {});
}
