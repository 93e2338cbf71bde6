import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Every directory this module makes starts with this, so a later run can find the ones left behind. */
const PREFIX = 'roster-mariadb-';
/** The process that made the directory: once it is gone, so must the server and the directory be. */
const OWNER_FILE = 'owner.pid';
/** mariadbd's own pid file (`--pid-file`). */
export const SERVER_PID_FILE = 'mariadbd.pid';
const INSTALL_WITHIN_MS = 60_000;

/**
 * InnoDB's sizes for a throwaway server: the packaged defaults write a 100 MB redo log and reserve
 * a 128 MB buffer pool, which a test's few rows never use. The data file path must be the same
 * for the install and every start.
 */
export const INNODB_SIZES = [
  '--innodb-log-file-size=8M',
  '--innodb-data-file-path=ibdata1:10M:autoextend',
  '--innodb-buffer-pool-size=32M',
];

/** The paths of one server: its data, socket, pid file and error log side by side. */
export interface DataDir {
  readonly root: string;
  readonly data: string;
  readonly socket: string;
  readonly pidFile: string;
  readonly errorLog: string;
}

/**
 * A fresh directory for one server. A Unix socket path is at most 107 bytes, so a long TMPDIR
 * falls back to /tmp.
 */
export function makeDataDir(): DataDir {
  const base = path.join(tmpdir(), `${PREFIX}XXXXXX`, 'mysqld.sock').length < 100 ? tmpdir() : '/tmp';
  const root = mkdtempSync(path.join(base, PREFIX));
  writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  return {
    root,
    data: path.join(root, 'data'),
    socket: path.join(root, 'mysqld.sock'),
    pidFile: path.join(root, SERVER_PID_FILE),
    errorLog: path.join(root, 'error.log'),
  };
}

/** Whether this process runs as root, where mariadbd refuses to start without `--user=root`. */
export const runsAsRoot = (): boolean => process.getuid?.() === 0;

/**
 * Lays out the system tables with `mariadb-install-db`. `root` may log in without a password,
 * and only over the socket (`localhost`): the tests' own user is made once the server runs.
 */
export async function installDataDir(installDb: string, dir: DataDir): Promise<void> {
  const args = [
    '--no-defaults',
    `--datadir=${dir.data}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    '--skip-name-resolve',
    ...(runsAsRoot() ? ['--user=root'] : []),
    ...INNODB_SIZES,
  ];
  try {
    await run(installDb, args, { timeout: INSTALL_WITHIN_MS, killSignal: 'SIGKILL' });
  } catch (error) {
    const {
      stdout = '',
      stderr = '',
      killed,
    } = error as { stdout?: string; stderr?: string; killed?: boolean };
    const why = killed ? `did not finish within ${INSTALL_WITHIN_MS / 1000} s` : 'failed';
    throw new Error(`${installDb} ${why}:\n${lastLines(`${stdout}\n${stderr}`)}`);
  }
}

/** The end of a log, for an error message. */
export function lastLines(text: string, count = 15): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

/** The error log's end, or a note that there is none yet. */
export function errorLogTail(dir: DataDir): string {
  try {
    return lastLines(readFileSync(dir.errorLog, 'utf8'));
  } catch {
    return '(no error log)';
  }
}

/**
 * Kills the servers and removes the directories that processes which no longer run left behind
 * (a test run killed outright runs no exit hook). A server is killed only when its command line
 * names its own directory, so a pid the system gave to another process since is left alone.
 */
export function sweepAbandoned(): void {
  for (const base of new Set([tmpdir(), '/tmp'])) {
    let names: string[];
    try {
      names = readdirSync(base).filter((name) => name.startsWith(PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      const root = path.join(base, name);
      const owner = readPid(path.join(root, OWNER_FILE));
      if (owner === null || isRunning(owner)) continue;
      const server = readPid(path.join(root, SERVER_PID_FILE));
      if (server !== null && commandLine(server).includes(root)) {
        try {
          process.kill(server, 'SIGKILL');
        } catch {
          // Gone between the two reads.
        }
      }
      rmSync(root, { recursive: true, force: true });
    }
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
