import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { FxServer } from '../emulator';

// Two folders below the repository both as source (dev/stand-ins) and bundled (.build/dev).
const repo = path.resolve(import.meta.dirname, '../..');
const source = path.join(repo, 'dev/stand-ins/oxmysql');
/** Inside the repository, so the resource's `require('mysql2')` finds its node_modules. */
const folder = path.join(repo, '.build/dev/stand-ins/oxmysql');

let built: Promise<string> | null = null;

/**
 * Builds the stand-in's TypeScript into the script its manifest names, once per process, so it
 * is never older than its source. Several test processes may build at once: each writes a file
 * of its own and renames it into place.
 */
function buildOnce(): Promise<string> {
  built ??= (async () => {
    const result = await build({
      entryPoints: [path.join(source, 'server.ts')],
      bundle: true,
      platform: 'node',
      format: 'iife',
      target: 'node22',
      // The driver is required at run time from the repository's node_modules, as oxmysql bundles its own.
      external: ['mysql2', 'mysql2/*'],
      write: false,
      logLevel: 'warning',
    });
    mkdirSync(folder, { recursive: true });
    const script = path.join(folder, 'server.js');
    const partial = `${script}.${process.pid}`;
    writeFileSync(partial, result.outputFiles[0]?.text ?? '');
    renameSync(partial, script);
    copyFileSync(path.join(source, 'fxmanifest.lua'), path.join(folder, 'fxmanifest.lua'));
    return folder;
  })();
  return built;
}

export interface OxmysqlOptions {
  /** `set mysql_connection_string …` before it starts (oxmysql's URI or `key=value;` form). */
  readonly connectionString?: string;
  /**
   * Milliseconds between two tries to reach a database that refused (oxmysql waits 30 s): a test
   * of a server that comes back later need not wait that long.
   */
  readonly retryMs?: number;
}

/**
 * Starts the oxmysql stand-in (dev/stand-ins/oxmysql) as the resource `oxmysql`, the name other
 * resources call. Like oxmysql, it connects on the next frame; `oxmysqlConnected` waits for that.
 */
export async function startOxmysql(server: FxServer, options: OxmysqlOptions = {}): Promise<void> {
  const root = await buildOnce();
  if (options.connectionString !== undefined) {
    server.convars.set('mysql_connection_string', options.connectionString);
  }
  if (options.retryMs !== undefined) server.convars.set('oxmysql_stand_in_retry_ms', String(options.retryMs));
  server.startResource('oxmysql', root);
}

const CONNECTED = 'Database server connection established!';

/**
 * Resolves once oxmysql printed that its pool is up (`connected` lines so far: a restart's
 * second connection is the second line), or rejects with its log after `withinMs`. The default
 * is generous: on a busy 2-core machine, with several database test files starting together, a
 * first connection was seen to take over 10 s.
 */
export async function oxmysqlConnected(server: FxServer, withinMs = 30_000, connected = 1): Promise<void> {
  const deadline = performance.now() + withinMs;
  const count = () => server.log.of('oxmysql').filter((line) => line.includes(CONNECTED)).length;
  while (count() < connected) {
    if (performance.now() > deadline) {
      throw new Error(
        `oxmysql did not connect within ${withinMs} ms:\n${server.log.of('oxmysql').join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
