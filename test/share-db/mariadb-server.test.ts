import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { FxServer } from '../../dev/emulator';
import { MariaDbMissingError, type TestDatabase } from '../../dev/mariadb';
import { findMariaDbPrograms } from '../../dev/mariadb/programs';
import { oxmysqlConnected, startOxmysql } from '../../dev/stand-ins/oxmysql';
import { eventually, expectNoUnhandledRejections } from '../integration/harness';
import { mariadbCredentials, privateMariaDb, testDatabase } from './mariadb';

// The test MariaDB itself: a database per test file, a server that can be frozen, halted and
// booted again, cleaned up however the process that started it ends, and a clear error when
// Debian's package is missing.
const repo = path.resolve(import.meta.dirname, '../..');

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // A killed server whose parent is gone may linger as a zombie until reaped: it runs no more.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2]?.startsWith('Z');
  } catch {
    return false;
  }
};

describe('the run’s server', () => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of made) await db.drop();
  });

  it('gives each test file a database of its own that the others do not see', async () => {
    const [a, b] = [await testDatabase(), await testDatabase()];
    made.push(a, b);
    expect(a.name).not.toBe(b.name);
    await a.query('CREATE TABLE t (n INT)');
    await a.query('INSERT INTO t VALUES (1)');
    await expect(b.query('SELECT * FROM t')).rejects.toThrow(/doesn't exist/);
    expect(await a.query('SELECT n FROM t')).toEqual([{ n: 1 }]);
  });

  it('refuses a wrong password', async () => {
    const { host, port, user } = await mariadbCredentials();
    await expect(mysql.createConnection({ host, port, user, password: 'wrong' })).rejects.toMatchObject({
      code: 'ER_ACCESS_DENIED_ERROR',
    });
  });
});

describe('a server of its own', () => {
  it('freezes and thaws, halts and boots again on the same port and data, as oxmysql sees it', async () => {
    const server = await privateMariaDb();
    const fx = new FxServer();
    try {
      const { credentials } = server;
      const admin = await mysql.createConnection({ ...credentials });
      await admin.query('CREATE DATABASE kept');
      await admin.query('CREATE TABLE kept.t (n INT)');
      await admin.end();
      await fx.start();
      await startOxmysql(fx, { connectionString: server.connectionString('kept'), retryMs: 300 });
      const caller = fx.createScriptResource('caller');
      const ox = caller.exports.oxmysql as Record<string, (...args: unknown[]) => Promise<unknown>>;
      await oxmysqlConnected(fx);

      server.freeze();
      let frozenAnswer: unknown;
      const frozen = ox.insert_async?.('INSERT INTO t VALUES (?)', [1]).then((v) => {
        frozenAnswer = v;
      });
      for (let i = 0; i < 10; i++) await fx.nextTick();
      expect(frozenAnswer).toBeUndefined();
      server.thaw();
      await frozen;
      expect(frozenAnswer).toBe(0);

      await server.halt();
      await server.boot();
      expect(await ox.scalar_async?.('SELECT COUNT(*) FROM t')).toBe(1);
      fx.stop();
      expectNoUnhandledRejections(fx);
    } finally {
      fx.stop();
      await server.stop();
    }
    expect(existsSync(server.dir.root)).toBe(false);
  });

  it('says which package to install when the server is missing', () => {
    expect(() => findMariaDbPrograms(['/nonexistent'])).toThrow(MariaDbMissingError);
    expect(() => findMariaDbPrograms(['/nonexistent'])).toThrow(
      /mariadbd not found.*apt-get install mariadb-server/,
    );
  });
});

describe('the process that started a server ends', () => {
  let script = '';
  const owners: ChildProcess[] = [];

  afterAll(() => {
    for (const owner of owners) owner.kill('SIGKILL');
  });

  async function owner(how: 'exit' | 'wait'): Promise<{ child: ChildProcess; root: string; pid: number }> {
    if (!script) {
      script = path.join(repo, '.build/test/mariadb-owner.mjs');
      await build({
        entryPoints: [path.join(import.meta.dirname, 'owner-process.ts')],
        outfile: script,
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        logLevel: 'warning',
      });
    }
    const child = spawn(process.execPath, [script, how], { stdio: ['ignore', 'pipe', 'inherit'] });
    owners.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] as string);
      });
      child.once('exit', (code) => reject(new Error(`owner exited (${code}) before starting a server`)));
    });
    return { child, ...(JSON.parse(line) as { root: string; pid: number }) };
  }

  it('by process.exit: its exit hook kills the server and removes the directory', async () => {
    const { child, root, pid } = await owner('exit');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(running(pid)).toBe(false);
    expect(existsSync(root)).toBe(false);
  });

  it('by SIGTERM: the same', async () => {
    const { child, root, pid } = await owner('wait');
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(running(pid)).toBe(false);
    expect(existsSync(root)).toBe(false);
  });

  it('killed outright: the next server started sweeps what it left', async () => {
    const { child, root, pid } = await owner('wait');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(running(pid)).toBe(true);
    const next = await privateMariaDb();
    await next.stop();
    await eventually(() => !running(pid));
    expect(existsSync(root)).toBe(false);
  });
});
