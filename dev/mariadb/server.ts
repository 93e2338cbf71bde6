import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import mysql from 'mysql2/promise';
import {
  type DataDir,
  errorLogTail,
  INNODB_SIZES,
  installDataDir,
  makeDataDir,
  runsAsRoot,
  sweepAbandoned,
} from './data-dir';
import { onProcessEnd } from './exit-hooks';
import { findMariaDbPrograms } from './programs';

/** How a client reaches the server: loopback TCP and a user that may create databases. */
export interface MariaDbCredentials {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

export interface MariaDbOptions {
  /** The user the tests connect as (default `roster`); it gets every privilege. */
  readonly user?: string;
  /** How long the server may take to accept connections (default 30 s). */
  readonly readyWithinMs?: number;
}

const READY_WITHIN_MS = 30_000;
const STOP_WITHIN_MS = 10_000;
const POLL_MS = 50;
/** Tries at a port: another process may take the free port between our probe and mariadbd's bind. */
const PORT_TRIES = 3;

/**
 * The server's settings beyond the data directory. Character set as Debian's packaged
 * configuration sets it (mariadb.conf.d/50-server.cnf), which `--no-defaults` leaves out; native
 * AIO off, since io_uring is refused in many containers; a commit flushes its log once a second,
 * which only matters to a crash of the whole machine.
 */
const SERVER_SETTINGS = [
  '--character-set-server=utf8mb4',
  '--collation-server=utf8mb4_general_ci',
  '--innodb-use-native-aio=0',
  '--innodb-flush-log-at-trx-commit=2',
  '--skip-name-resolve',
  '--max-connections=500',
  // Many servers' pools connecting at once (test files starting together) must not overflow the
  // listen queue: a dropped connection attempt waits out the kernel's retries, tens of seconds.
  '--back-log=1000',
];

/**
 * A MariaDB server of its own in a temporary data directory, on a free loopback port, run as
 * whoever runs this (root included). Debian's `mariadb-server` package provides it.
 *
 * `freeze`/`thaw` stall it (every statement and connection waits); `halt`/`boot` stop and start
 * its process on the same port and data (connections are refused meanwhile); `stop` ends it and
 * removes its directory, as the exit hooks do if the process ends first.
 */
export class MariaDb {
  private child: ChildProcess | null = null;
  private frozen = false;
  private readonly forget: () => void;

  private constructor(
    private readonly login: { readonly user: string; readonly password: string },
    readonly dir: DataDir,
    private readonly serverPath: string,
  ) {
    this.forget = onProcessEnd(() => this.killNow());
  }

  /** The port is known once the server runs (and kept across `halt`/`boot`). */
  private port = 0;

  /** Milliseconds from the call to a server that accepts the tests' user. */
  startedInMs = 0;

  get credentials(): MariaDbCredentials {
    return { host: '127.0.0.1', port: this.port, ...this.login };
  }

  /** Starts a server; rejects with MariaDbMissingError naming the package when it is not installed. */
  static async start(options: MariaDbOptions = {}): Promise<MariaDb> {
    const began = performance.now();
    const programs = findMariaDbPrograms();
    sweepAbandoned();
    const dir = makeDataDir();
    const server = new MariaDb({ user: options.user ?? 'roster', password: secret() }, dir, programs.server);
    try {
      await installDataDir(programs.installDb, dir);
      await server.launch(options.readyWithinMs ?? READY_WITHIN_MS);
      await server.createUser();
    } catch (error) {
      server.killNow();
      server.forget();
      throw error;
    }
    server.startedInMs = Math.round(performance.now() - began);
    return server;
  }

  /** `mysql://user:password@127.0.0.1:port/database`, oxmysql's URI form. */
  connectionString(database: string, password = this.credentials.password): string {
    const { user, host, port } = this.credentials;
    return `mysql://${user}:${password}@${host}:${port}/${database}`;
  }

  /** Stops the process (SIGSTOP): connections open, statements and new logins wait until `thaw`. */
  freeze(): void {
    if (!this.child?.pid || this.frozen) return;
    process.kill(this.child.pid, 'SIGSTOP');
    this.frozen = true;
    // A signal reaches every thread of the server a moment later: frozen means stopped, so wait
    // (a bounded number of reads) until the kernel shows the process stopped ('T').
    for (let reads = 0; reads < 10_000 && !stopped(this.child.pid); reads++);
  }

  thaw(): void {
    if (!this.child?.pid || !this.frozen) return;
    process.kill(this.child.pid, 'SIGCONT');
    this.frozen = false;
  }

  /** Shuts the server down (its clients lose their connections) and keeps its data for `boot`. */
  async halt(): Promise<void> {
    this.thaw();
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
      await exited;
      clearTimeout(late);
    }
  }

  /** Starts the halted server again on the same port with the same data and users. */
  async boot(readyWithinMs = READY_WITHIN_MS): Promise<void> {
    if (this.child) return;
    await this.launch(readyWithinMs, this.port);
  }

  /** Ends the server and removes its directory. */
  async stop(): Promise<void> {
    await this.halt();
    rmSync(this.dir.root, { recursive: true, force: true });
    this.forget();
  }

  /** Synchronous, for exit hooks: kill the process outright and remove the directory. */
  private killNow(): void {
    try {
      this.child?.kill('SIGKILL');
    } catch {
      // Already gone.
    }
    this.child = null;
    rmSync(this.dir.root, { recursive: true, force: true });
  }

  private async launch(readyWithinMs: number, port?: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const chosen = port ?? (await freePort());
      const child = this.spawnServer(chosen);
      const outcome = await this.waitReady(child, readyWithinMs);
      if (outcome === 'ready') {
        this.port = chosen;
        return;
      }
      child.kill('SIGKILL');
      const log = errorLogTail(this.dir);
      const portTaken = /Address already in use|Can't start server: Bind on TCP\/IP port/.test(log);
      if (portTaken && port === undefined && attempt < PORT_TRIES) continue;
      const why =
        outcome === 'exited' ? 'exited' : `did not accept connections within ${readyWithinMs / 1000} s`;
      throw new Error(`mariadbd ${why} (port ${chosen}, ${this.dir.root}):\n${log}`);
    }
  }

  private spawnServer(port: number): ChildProcess {
    const { dir } = this;
    const child = spawn(
      this.serverPath,
      [
        '--no-defaults',
        `--datadir=${dir.data}`,
        `--socket=${dir.socket}`,
        `--pid-file=${dir.pidFile}`,
        `--log-error=${dir.errorLog}`,
        '--bind-address=127.0.0.1',
        `--port=${port}`,
        ...(runsAsRoot() ? ['--user=root'] : []),
        ...INNODB_SIZES,
        ...SERVER_SETTINGS,
      ],
      { stdio: 'ignore' },
    );
    // A spawn failure (the binary vanished) shows as an exit below; without a listener it would throw.
    child.on('error', () => {});
    this.child = child;
    return child;
  }

  /** Polls a root login over the socket until it answers, the process exits, or time is up. */
  private async waitReady(child: ChildProcess, withinMs: number): Promise<'ready' | 'exited' | 'late'> {
    const deadline = performance.now() + withinMs;
    while (performance.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) return 'exited';
      try {
        const connection = await mysql.createConnection({
          socketPath: this.dir.socket,
          user: 'root',
          connectTimeout: 2000,
        });
        await connection.end();
        return 'ready';
      } catch {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
    return 'late';
  }

  /** The tests' user, from any loopback address, with every privilege (it creates databases). */
  private async createUser(): Promise<void> {
    const connection = await mysql.createConnection({ socketPath: this.dir.socket, user: 'root' });
    try {
      const { user, password } = this.login;
      await connection.query('CREATE USER ?@? IDENTIFIED BY ?', [user, '%', password]);
      await connection.query('GRANT ALL PRIVILEGES ON *.* TO ?@? WITH GRANT OPTION', [user, '%']);
    } finally {
      await connection.end();
    }
  }
}

/** Starts a MariaDB of its own (see MariaDb). */
export const startMariaDb = (options?: MariaDbOptions): Promise<MariaDb> => MariaDb.start(options);

/** Hex only: it goes into a connection string as it is, which oxmysql does not decode. */
const secret = (): string => randomBytes(12).toString('hex');

/** A port nothing listens on now; mariadbd binds it a moment later (see PORT_TRIES). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether the process `pid` is stopped by a signal, as /proc tells (false where it cannot be read). */
function stopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  } catch {
    return false;
  }
}
