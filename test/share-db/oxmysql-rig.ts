import { build } from 'esbuild';
import { FxServer, type ScriptResource } from '../../dev/emulator';
import { DatabaseLink, type TestDatabase } from '../../dev/mariadb';
import { oxmysqlConnected, startOxmysql } from '../../dev/stand-ins/oxmysql';
import { expectNoUnhandledRejections } from '../integration/harness';
import { testDatabase } from './mariadb';

// biome-ignore lint/suspicious/noExplicitAny: an export answers whatever crossed msgpack; tests assert on it.
type Fn = (...args: any[]) => any;

/** oxmysql's export names (each also as `<name>_async` and `<name>Sync`). */
type ExportName =
  | 'query'
  | 'single'
  | 'scalar'
  | 'insert'
  | 'update'
  | 'prepare'
  | 'rawExecute'
  | 'transaction'
  | 'startTransaction'
  | 'isReady'
  | 'awaitConnection'
  | 'store'
  | 'execute'
  | 'fetch';
export type OxExports = Record<ExportName | `${ExportName}_async` | `${ExportName}Sync`, Fn>;

export interface OxmysqlRig {
  server: FxServer;
  db: TestDatabase;
  /** Between oxmysql and the database: stall or refuse it without touching the shared server. */
  link: DatabaseLink;
  /** A JS resource calling oxmysql's exports as any resource does. */
  caller: ScriptResource;
  /** `exports.oxmysql` as the caller sees it. */
  ox: OxExports;
  /** oxmysql's console lines. */
  oxLog(): string;
  close(): Promise<void>;
}

export interface RigOptions {
  /** The connection string oxmysql gets (default: this rig's database through its link). */
  connectionString?: (db: TestDatabase, link: DatabaseLink) => string;
  retryMs?: number;
  /** Wait for oxmysql's pool before answering (default true). */
  connected?: boolean;
  /** Before oxmysql starts (e.g. make the link refuse). */
  beforeStart?: (db: TestDatabase, link: DatabaseLink) => void | Promise<void>;
}

/** An emulated server with the oxmysql stand-in on a database of its own, reached through a link. */
export async function startOxmysqlRig(options: RigOptions = {}): Promise<OxmysqlRig> {
  const db = await testDatabase();
  const link = await DatabaseLink.open(db.credentials);
  const server = new FxServer();
  await server.start();
  await options.beforeStart?.(db, link);
  const connectionString =
    options.connectionString?.(db, link) ?? db.connectionString({ host: link.host, port: link.port });
  await startOxmysql(server, { connectionString, ...(options.retryMs ? { retryMs: options.retryMs } : {}) });
  const caller = server.createScriptResource('caller');
  if (options.connected !== false) await oxmysqlConnected(server);
  return {
    server,
    db,
    link,
    caller,
    get ox() {
      return caller.exports.oxmysql as unknown as OxExports;
    },
    oxLog: () => server.log.of('oxmysql').join('\n'),
    async close() {
      server.stop();
      await link.close();
      await db.drop();
      expectNoUnhandledRejections(server);
    },
  };
}

/** What a plain callback received, and whether it was called at all. */
export interface Answer {
  called: boolean;
  args: unknown[];
}

type Pending = Answer & { settled: Promise<void> };

/**
 * Calls a callback-form export as `name(...args, callback, ...after)`; `answer.called` stays false
 * if oxmysql never calls back. `after` is what a wrapper passes behind the callback (its resource
 * name and the promise flag).
 */
function call(rig: OxmysqlRig, name: ExportName, args: unknown[], after: unknown[]): Pending {
  const answer: Pending = { called: false, args: [], settled: Promise.resolve() };
  answer.settled = new Promise((resolve) => {
    const callback = (...values: unknown[]) => {
      answer.called = true;
      answer.args = values;
      resolve();
    };
    rig.ox[name](...args, callback, ...after);
  });
  return answer;
}

/** `name(...args, callback)`: a plain callback. */
export const withCallback = (rig: OxmysqlRig, name: ExportName, ...args: unknown[]): Pending =>
  call(rig, name, args, []);

/** `name(query, params, callback, 'caller', true)`: a callback with the wrappers' promise flag. */
export const withPromiseFlag = (rig: OxmysqlRig, name: ExportName, query: string, params: unknown): Pending =>
  call(rig, name, [query, params], ['caller', true]);

/** Waits `count` server frames (time judged on the emulator's frames, not the wall clock). */
export async function frames(rig: OxmysqlRig, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await rig.server.nextTick();
}

/**
 * The community's wrapper (`@overextended/oxmysql`, what a TypeScript resource imports) loaded
 * into the caller resource as a bundle would carry it: `MySQL.query(...)` etc.
 */
export async function loadWrapper(rig: OxmysqlRig): Promise<Record<string, Fn>> {
  const bundle = await build({
    stdin: {
      contents: "import { oxmysql } from '@overextended/oxmysql'; globalThis.MySQL = oxmysql;",
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'iife',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  rig.caller.eval(bundle.outputFiles[0]?.text ?? '');
  return rig.caller.global.MySQL as Record<string, Fn>;
}
