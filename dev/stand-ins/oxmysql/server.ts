/*
 * The oxmysql stand-in's entry: its exports, registered from one table as oxmysql's
 * src/index.ts does. Each database export takes `(query, parameters?, callback?,
 * invokingResource?, promise?)`: parameters may be left out for the callback; the resource
 * defaults to the caller's; `promise` (what the wrappers pass) makes failures reach the callback
 * as `(null, message)`. Every export also exists as `<name>_async` and `<name>Sync`, which answer
 * a Promise that rejects with that message. The plain forms answer nothing themselves.
 */
import { type Caller, printLost } from './errors';
import { type Callback, fx, invokingResource } from './fx';
import { isReady, startPool, stopPool, waitForPool } from './pool';
import type { AnswerKind } from './responses';
import { runExecute } from './run-execute';
import { runQuery } from './run-query';
import { runTransaction } from './run-transaction';
import { startTransaction } from './start-transaction';

type Fn = (...args: never[]) => unknown;

/** oxmysql src/utils/setCallback.ts: the callback, or the parameters when they are one. */
function callerOf(params: unknown, callback: unknown, resource: string | null, promise: unknown): Caller {
  const chosen =
    typeof callback === 'function' ? callback : typeof params === 'function' ? params : undefined;
  return { resource, callback: chosen as Callback | undefined, promise: Boolean(promise) };
}

/** A query-style export: started, not awaited (see printLost for what that loses). */
const queryExport =
  (kind: AnswerKind) =>
  (query: unknown, params: unknown = [], cb?: unknown, resource = invokingResource(), promise?: unknown) => {
    runQuery(kind, callerOf(params, cb, resource, promise), query, params).catch(printLost);
  };

const executeExport =
  (unpack: boolean) =>
  (query: unknown, params: unknown = [], cb?: unknown, resource = invokingResource(), promise?: unknown) => {
    runExecute(callerOf(params, cb, resource, promise), query, params, unpack).catch(printLost);
  };

const query = queryExport(null);

const EXPORTS: Record<string, Fn> = {
  isReady,
  awaitConnection: async () => {
    await waitForPool();
    return true;
  },
  query,
  single: queryExport('single'),
  scalar: queryExport('scalar'),
  update: queryExport('update'),
  insert: queryExport('insert'),
  transaction: (
    queries: unknown,
    params: unknown = [],
    cb?: unknown,
    resource = invokingResource(),
    promise?: unknown,
  ) => {
    runTransaction(callerOf(params, cb, resource, promise), queries, params).catch(printLost);
  },
  startTransaction: (work: (q: unknown) => unknown, resource = invokingResource()) =>
    startTransaction(resource, work as Parameters<typeof startTransaction>[1]),
  prepare: executeExport(true),
  rawExecute: executeExport(false),
  // For ghmattimysql and mysql-async scripts: the query comes back as it is.
  store: (sql: unknown, cb: (value: unknown) => unknown) => cb(sql),
  // Deprecated names of `query`.
  execute: query,
  fetch: query,
};

/** `<name>_async`: the promise form any resource can call without a wrapper. */
const promised =
  (exported: Fn) =>
  (query: unknown, params: unknown = [], resource = invokingResource()) =>
    new Promise((resolve, reject) => {
      const settle = (result: unknown, error?: string) =>
        error ? reject(new Error(error)) : resolve(result);
      (exported as (...args: unknown[]) => unknown)(query, params, settle, resource, true);
    });

for (const [name, exported] of Object.entries(EXPORTS)) {
  fx.exports(name, exported);
  fx.exports(`${name}_async`, promised(exported));
  fx.exports(`${name}Sync`, promised(exported));
}

startPool(printLost);

fx.on('onResourceStop', (name: unknown) => {
  if (name === fx.GetCurrentResourceName()) void stopPool();
});
