import type { Socket } from 'node:net';

type Fn = (...args: unknown[]) => unknown;
type TimerHandle = ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate>;

const TIMER_MODULES = new Set(['timers', 'node:timers']);
const SOCKET_MODULES = new Set(['net', 'node:net', 'tls', 'node:tls']);

/**
 * The Node handles a resource opened, closed when it stops: FXServer frees the resource's whole
 * Node environment (NodeScriptRuntime.cpp Destroy: `node::Stop`, `node::FreeEnvironment`, which
 * closes every handle of its libuv loop), so its Node timers never fire and its sockets close.
 * The resources here share the host's loop, so what can be followed is followed: timers from
 * `require('timers')`, sockets from `net`/`tls` `connect` (undici's), and `fetch` requests
 * (aborted). Not followed: servers it listens on, `http.request`, `timers/promises`, fs watchers,
 * child processes.
 */
export class ResourceHandles {
  private readonly timers = new Map<TimerHandle, (handle: TimerHandle) => void>();
  private readonly sockets = new Set<Socket>();
  private readonly aborter = new AbortController();
  private readonly modules = new Map<string, unknown>();

  /** Replaces the realm's `require` and `fetch` with ones that follow what they open. */
  install(global: Record<string, unknown>): void {
    const hostRequire = global.require as NodeJS.Require;
    const tracked = (id: string) => this.module(id, hostRequire);
    global.require = Object.assign(tracked, hostRequire);
    const hostFetch = global.fetch as typeof fetch | undefined;
    const RealmPromise = global.Promise as PromiseConstructor;
    // A Promise of the resource's realm, as its own Node's fetch would give: a rejection nobody
    // handles is the resource's (unhandled-rejections.ts), and a stopped one's goes unreported.
    if (hostFetch) {
      global.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
        new RealmPromise<Response>((resolve, reject) => {
          this.fetch(hostFetch, input, init).then(resolve, reject);
        });
    }
  }

  /** Clears every timer, destroys every socket and aborts every request still open. */
  close(): void {
    for (const [handle, clear] of this.timers) clear(handle);
    this.timers.clear();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.aborter.abort(new Error('the resource stopped'));
  }

  private module(id: string, hostRequire: NodeJS.Require): unknown {
    const loaded = hostRequire(id) as Record<string, unknown>;
    if (!TIMER_MODULES.has(id) && !SOCKET_MODULES.has(id)) return loaded;
    let wrapped = this.modules.get(id);
    if (!wrapped) {
      const overrides = TIMER_MODULES.has(id) ? this.timerFunctions(loaded) : this.socketFunctions(loaded);
      // Read through at each use: vitest's fake timers replace the module's functions in place.
      wrapped = new Proxy(loaded, {
        get: (target, key) =>
          typeof key === 'string' && key in overrides ? overrides[key] : Reflect.get(target, key),
      });
      this.modules.set(id, wrapped);
    }
    return wrapped;
  }

  private timerFunctions(timers: Record<string, unknown>): Record<string, Fn> {
    const start =
      (kind: 'setTimeout' | 'setInterval' | 'setImmediate', clearKind: string, once: boolean) =>
      (callback: unknown, ...rest: unknown[]) => {
        if (typeof callback !== 'function') return (timers[kind] as Fn)(callback, ...rest);
        const clear = (h: TimerHandle) => (timers[clearKind] as Fn)(h);
        const run = (...args: unknown[]) => {
          if (once) this.timers.delete(handle);
          return callback(...args);
        };
        const handle = (timers[kind] as Fn)(run, ...rest) as TimerHandle;
        this.timers.set(handle, clear);
        return handle;
      };
    const stop = (clearKind: string) => (handle: unknown) => {
      this.timers.delete(handle as TimerHandle);
      return (timers[clearKind] as Fn)(handle);
    };
    return {
      setTimeout: start('setTimeout', 'clearTimeout', true),
      setInterval: start('setInterval', 'clearInterval', false),
      setImmediate: start('setImmediate', 'clearImmediate', true),
      clearTimeout: stop('clearTimeout'),
      clearInterval: stop('clearInterval'),
      clearImmediate: stop('clearImmediate'),
    };
  }

  private socketFunctions(module: Record<string, unknown>): Record<string, Fn> {
    const follow =
      (name: string) =>
      (...args: unknown[]) => {
        const socket = (module[name] as Fn)(...args) as Socket;
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        return socket;
      };
    const overrides: Record<string, Fn> = { connect: follow('connect') };
    if (typeof module.createConnection === 'function')
      overrides.createConnection = follow('createConnection');
    return overrides;
  }

  private fetch(
    hostFetch: typeof fetch,
    input: Parameters<typeof fetch>[0],
    init?: RequestInit,
  ): Promise<Response> {
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = own ? AbortSignal.any([this.aborter.signal, own]) : this.aborter.signal;
    return hostFetch(input, { ...init, signal });
  }
}
