import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { EventTarget } from './event-bus';
import { createExports } from './js-exports';
import { formatScriptError, type Kernel } from './kernel';
import { createPacker, loadMsgpackInto, type Packer } from './msgpack-codec';
import { createResourceRealm, type Realm } from './resource-context';
import { ResourceHandles } from './resource-handles';
import { ResourceTimers } from './timers';

type Fn = (...args: unknown[]) => unknown;

/**
 * running; stopping: torn down (no event, tick or ref call reaches it) while what it already
 * queued drains; dead: nothing it still does reaches the server.
 */
type Phase = 'running' | 'stopping' | 'dead';

/**
 * One JS resource: its own V8 context with main.js's event, funcref and export layer and
 * timer.js's timers. Every event payload, export argument and result crosses as msgpack bytes.
 */
export class JsRuntime implements EventTarget {
  readonly realm: Realm;
  readonly packer: Packer;
  readonly timers: ResourceTimers;
  private readonly listeners = new Map<string, Fn[]>();
  private readonly netSafe = new Set<string>();
  private readonly finalizer: FinalizationRegistry<string>;
  private readonly forgetExports: (resource: string) => void;
  private readonly handles = new ResourceHandles();
  private phase: Phase = 'running';

  constructor(
    readonly name: string,
    readonly root: string,
    readonly kernel: Kernel,
  ) {
    this.realm = createResourceRealm(name, root, (text) => {
      if (this.alive) kernel.log.write(name, text);
    });
    this.finalizer = new FinalizationRegistry((ref) => kernel.refs.release(ref));
    this.packer = createPacker(loadMsgpackInto(this.realm.context), {
      // Once stopped, a function it passes on is a ref nobody can call (Destroy dropped the
      // call-ref routine); refs are owned by name, and a restart's new instance has the same one.
      toRef: (fn) =>
        this.phase === 'running'
          ? kernel.refs.create(name, (args, caller) => this.callOwnRef(fn, args, caller))
          : `${name}:stopped`,
      fromRef: (ref) => this.refProxy(ref),
    });
    this.timers = new ResourceTimers(
      kernel.now(),
      (where, error) => this.printError(where, error),
      (message) => new this.realm.TypeError(message),
    );
    const api = createExports({
      resource: name,
      realm: this.realm,
      on: (event, listener) => this.addListener(event, listener, false),
      emit: (event, ...args) => this.emit(event, ...args),
    });
    this.forgetExports = api.forget;
    this.installGlobals(api.exports);
    this.handles.install(this.realm.global);
  }

  /**
   * False once the resource stopped and what it had queued ran: from then on its code (a promise
   * settled by I/O, a host callback) may still run here, where FXServer would run none of it, so
   * nothing it does reaches the server: its events, natives, ref calls and log lines are dropped.
   */
  get alive(): boolean {
    return this.phase !== 'dead';
  }

  /** Runs the resource's files in order as classic scripts; a file that throws is reported and skipped. */
  load(files: readonly string[], failed: (file: string, error: unknown) => void): void {
    for (const file of files) {
      try {
        const code = readFileSync(path.join(this.root, file), 'utf8');
        new vm.Script(code, { filename: `@${this.name}/${file}` }).runInContext(this.realm.context);
      } catch (error) {
        failed(`@${this.name}/${file}`, error);
      }
    }
  }

  /** Evaluates code in the resource's global scope (tests driving a script resource). */
  evaluate(code: string): unknown {
    return new vm.Script(code, { filename: `@${this.name}/eval.js` }).runInContext(this.realm.context);
  }

  emit(event: string, ...args: unknown[]): void {
    if (!this.alive) return;
    const payload = this.packer.pack(args);
    this.kernel.bus.trigger(event, payload, '', this.name);
  }

  addListener(event: string, listener: Fn, netSafe: boolean): void {
    if (netSafe) this.netSafe.add(event);
    this.kernel.bus.handles(this.name, event);
    let list = this.listeners.get(event);
    if (!list) {
      list = [];
      this.listeners.set(event, list);
    }
    list.push(listener);
  }

  removeListener(event: string, listener: Fn): void {
    const list = this.listeners.get(event);
    const i = list?.indexOf(listener) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  /** main.js `setEventFunction`: source handling, net safety, ordered listeners, error isolation. */
  dispatch(event: string, payload: Uint8Array, source: string): void {
    const g = this.realm.global;
    g.source = source;
    if (source.startsWith('net')) {
      if ((this.listeners.get(event)?.length ?? 0) > 0 && !this.netSafe.has(event)) {
        g.console && (g.console as Console).error(`Event ${event} was not safe for net`);
        g.source = null;
        return;
      }
      g.source = Number.parseInt(source.substring(4), 10);
    } else if (source.startsWith('internal-net')) {
      g.source = Number.parseInt(source.substring(13), 10);
    }
    const listeners = [...(this.listeners.get(event) ?? [])];
    if (listeners.length === 0) {
      g.source = null;
      return;
    }
    const args = this.packer.unpack(payload) ?? [];
    if (!Array.isArray(args)) {
      g.source = null;
      return;
    }
    for (const listener of listeners) {
      try {
        const result = listener.apply(null, args);
        if (result instanceof this.realm.Promise) {
          result.catch((error: unknown) => (g.console as Console).error('Unhandled promise failure:', error));
        }
      } catch (error) {
        this.printError(`event \`${event}'`, error);
      }
    }
    g.source = null;
  }

  /** Drops the cached exports of a stopped resource (main.js, onServerResourceStop). */
  forgetExportsOf(resource: string): void {
    this.forgetExports(resource);
  }

  printError(where: string, error: unknown): void {
    if (this.alive) this.kernel.log.write(this.name, formatScriptError(where, error));
  }

  /**
   * The resource stops, after onResourceStop ran (NodeScriptRuntime.cpp Destroy): the event, tick
   * and call-ref routines are dropped first, so no event, timer, tick or call of one of its refs
   * reaches it again. Then Node emits `beforeExit`/`exit` through MakeCallback, whose callback
   * scope drains the microtask queue (node src/api/callback.cc InternalCallbackScope::Close):
   * what its onResourceStop handler queued (`.then`, an `await` of a settled promise) still runs,
   * with its effects. Then `node::FreeEnvironment` closes its handles: nothing else ever runs.
   * Here the drain is the host's own, right after this call; the resource is dead once it is over.
   */
  stop(dead: () => void = () => {}): void {
    if (this.phase !== 'running') return;
    this.phase = 'stopping';
    this.timers.clearAll();
    this.listeners.clear();
    this.kernel.refs.releaseOwner(this.name);
    afterQueuedMicrotasks(() => {
      this.phase = 'dead';
      this.handles.close();
      dead();
    });
  }

  /** main.js `setCallRefFunction`: a Promise result travels as `{ __cfx_async_retval }`. */
  private callOwnRef(fn: Fn, args: Uint8Array, caller: string | null): Uint8Array {
    // Destroy drops the call-ref routine first: the caller gets no result (a nested ref error).
    if (this.phase !== 'running') return this.packer.pack(null);
    return this.kernel.bus.enter(caller, this.name, () => {
      try {
        const result = fn(...(this.packer.unpack(args) as unknown[]));
        if (result instanceof this.realm.Promise) {
          return this.packer.pack([
            {
              __cfx_async_retval: (cb: Fn | null) => {
                result
                  .then((value) => cb?.([value], null))
                  .catch((error: unknown) => cb?.(null, rejectionMessage(error)));
              },
            },
          ]);
        }
        return this.packer.pack([result]);
      } catch (error) {
        this.printError('call ref', error);
        return this.packer.pack(null);
      }
    });
  }

  /** main.js `refFunctionUnpacker`. */
  private refProxy(ref: string): Fn {
    const { realm, kernel, packer, name } = this;
    const invoker = kernel.bus.invokingResource(name);
    const proxy = (...args: unknown[]): unknown => {
      if (!this.alive) return undefined;
      let ret: unknown = null;
      try {
        ret = packer.unpack(kernel.refs.invoke(ref, packer.pack(args), name));
      } catch {
        // main.js swallows this and reports the generic nested-ref error below.
      }
      if (ret === null || ret === undefined) {
        let message = `Error in nested ref call for ${name}. `;
        if (invoker)
          message += `${name} tried to call a function reference in ${invoker} but the reference wasn't valid. `;
        throw new realm.Error(message);
      }
      // main.js switches on `retvals.length`: a map from a Lua callee (no length) is returned whole.
      const values = ret as unknown[];
      if (values.length === 0) return undefined;
      if (values.length !== 1) return values;
      const rv = values[0] as { __cfx_async_retval?: Fn } | null;
      if (rv?.__cfx_async_retval) {
        const start = rv.__cfx_async_retval;
        return new realm.Promise((resolve, reject) => {
          start((v: unknown[] | null, e: unknown) => {
            if (e != null) reject(e);
            else resolve(!v || v.length === 0 ? undefined : v.length === 1 ? v[0] : v);
          });
        });
      }
      return rv;
    };
    kernel.refs.retain(ref);
    this.finalizer.register(proxy, ref);
    return proxy;
  }

  private installGlobals(exportsProxy: unknown): void {
    const g = this.realm.global;
    const on = (event: string, listener: Fn) => this.addListener(event, listener, false);
    const onNet = (event: string, listener: Fn) => this.addListener(event, listener, true);
    const off = (event: string, listener: Fn) => this.removeListener(event, listener);
    const emit = (event: string, ...args: unknown[]) => this.emit(event, ...args);
    Object.assign(g, {
      on,
      addEventListener: (event: string, listener: Fn, netSafe = false) =>
        this.addListener(event, listener, netSafe),
      AddEventHandler: on,
      onNet,
      addNetEventListener: onNet,
      // main.js: RegisterNetEvent only marks the name net-safe; a callback argument is ignored.
      RegisterNetEvent: (event: string) => void this.netSafe.add(event),
      RegisterServerEvent: (event: string) => void this.netSafe.add(event),
      removeEventListener: off,
      RemoveEventHandler: off,
      setMaxEventListeners: () => {},
      emit,
      TriggerEvent: emit,
      exports: exportsProxy,
      msgpack_pack: (v: unknown) => this.packer.pack(v),
      msgpack_unpack: (b: Uint8Array) => this.packer.unpack(b),
      printError: (where: string, error: unknown) => this.printError(where, error),
    });
    this.timers.install(g);
  }
}

/**
 * How many microtask turns the host gives a stopped resource's queue before it is dead: enough
 * for any chain of settled promises its onResourceStop starts (each `await` is a turn or three),
 * all within the host task that stopped it, so before any I/O or timer callback.
 */
const DRAIN_TURNS = 1000;

function afterQueuedMicrotasks(then: () => void, turns = DRAIN_TURNS): void {
  queueMicrotask(() => (turns > 1 ? afterQueuedMicrotasks(then, turns - 1) : then()));
}

function rejectionMessage(error: unknown): string {
  if (!error) return '';
  const message = (error as { message?: unknown }).message;
  return message ? String(message) : String(error);
}
