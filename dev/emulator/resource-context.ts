import { createRequire } from 'node:module';
import path from 'node:path';
import { formatWithOptions } from 'node:util';
import vm from 'node:vm';

/** The resource realm's own intrinsics the emulator needs to build values that feel native there. */
export interface Realm {
  readonly context: vm.Context;
  readonly global: Record<string, unknown>;
  readonly Promise: PromiseConstructor;
  readonly Error: ErrorConstructor;
  readonly TypeError: TypeErrorConstructor;
}

// Node globals a FXServer resource sees (each resource has its own Node environment). Web
// classes come from the host: values made by them are host-realm objects, a known difference.
const NODE_GLOBALS = [
  'Buffer',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'AbortController',
  'AbortSignal',
  'Event',
  'EventTarget',
  'queueMicrotask',
  'structuredClone',
  'fetch',
  'Headers',
  'Request',
  'Response',
  'FormData',
  'Blob',
  'File',
  'performance',
  'atob',
  'btoa',
  'crypto',
  'MessageChannel',
  'MessagePort',
  'MessageEvent',
  'BroadcastChannel',
  'DOMException',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextEncoderStream',
  'TextDecoderStream',
  'CompressionStream',
  'DecompressionStream',
  'WebSocket',
  'Navigator',
  'navigator',
  'CustomEvent',
] as const;

// Listeners a resource adds to these would land on the host process (shared here, separate in
// FXServer, which swallows uncaughtException anyway).
const SWALLOWED_PROCESS_EVENTS = new Set(['uncaughtException', 'unhandledRejection', 'exit', 'beforeExit']);

function resourceProcess(resource: string): NodeJS.Process {
  const guard = (method: 'on' | 'once' | 'addListener' | 'prependListener') =>
    function (this: unknown, event: string | symbol, listener: (...args: unknown[]) => void) {
      if (typeof event === 'string' && SWALLOWED_PROCESS_EVENTS.has(event)) return proxy;
      process[method](event as never, listener as never);
      return proxy;
    };
  const overrides: Record<string, unknown> = {
    on: guard('on'),
    once: guard('once'),
    addListener: guard('addListener'),
    prependListener: guard('prependListener'),
    exit: () => {
      throw new Error(`not emulated: process.exit (called by ${resource})`);
    },
  };
  const proxy: NodeJS.Process = new Proxy(process, {
    get: (target, key) => {
      if (typeof key === 'string' && key in overrides) return overrides[key];
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return proxy;
}

function makeConsole(write: (text: string) => void): Console {
  const print = (...args: unknown[]) => write(formatWithOptions({ colors: false, depth: 4 }, ...args));
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  const out: Record<string, unknown> = {};
  for (const m of methods) out[m] = print;
  out.dir = (value: unknown) => print(value);
  out.table = print;
  out.assert = (ok: unknown, ...args: unknown[]) => {
    if (!ok) print('Assertion failed', ...args);
  };
  for (const noop of ['time', 'timeEnd', 'timeLog', 'group', 'groupEnd', 'count', 'countReset']) {
    out[noop] = () => {};
  }
  return out as unknown as Console;
}

/**
 * A fresh V8 context for one resource: FXServer gives each resource its own context and Node
 * environment, with a global `require` resolving from `<root>/dummy.js` (fact sheet, NSR
 * NodeScriptRuntime.cpp). Scripts run as classic scripts: no module, exports object, __dirname.
 */
export function createResourceRealm(resource: string, root: string, write: (text: string) => void): Realm {
  const context = vm.createContext({}, { name: `resource:${resource}` });
  const global = vm.runInContext('globalThis', context) as Record<string, unknown>;
  const host = globalThis as unknown as Record<string, unknown>;
  for (const name of NODE_GLOBALS) if (name in host) global[name] = host[name];
  global.global = global;
  // One clock for the whole server: timer.js runs on the server's game time (the host's
  // Date.now()), so the resource's Date must read the same clock. Read at each use, so vitest's
  // fake Date, installed or removed at any point, reaches every resource.
  Object.defineProperty(global, 'Date', {
    get: () => (globalThis as { Date: DateConstructor }).Date,
    // A script that assigns its own Date keeps it, as it would in FXServer.
    set: (value: unknown) =>
      Object.defineProperty(global, 'Date', { value, writable: true, configurable: true, enumerable: false }),
    configurable: true,
    enumerable: false,
  });
  global.process = resourceProcess(resource);
  global.require = createRequire(path.join(root, 'dummy.js'));
  global.console = makeConsole(write);
  return {
    context,
    global,
    Promise: global.Promise as PromiseConstructor,
    Error: global.Error as ErrorConstructor,
    TypeError: global.TypeError as TypeErrorConstructor,
  };
}
