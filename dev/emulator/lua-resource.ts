import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LUA_REGISTRYINDEX, type LuaEngine, LuaFactory, LuaReturn, type LuaWasm } from 'wasmoon';
import type { JsRuntime } from './js-runtime';
import { formatScriptError } from './kernel';
import { pushLuaBytes } from './lua-bytes';
import { LuaCoroutines } from './lua-coroutines';
import { type LuaRoutines, luaHostFunctions } from './lua-host';
import { callNative } from './lua-natives';
import { LuaPacker } from './lua-pack';

const SCHEDULER_NAME = '@citizen:/scripting/lua/scheduler.lua';
let scheduler: Buffer | undefined;
/** Beside this file, in dev/emulator or (copied by dev/build.mjs) in .build/dev; read once, when first needed. */
const schedulerSource = () =>
  (scheduler ??= readFileSync(path.join(import.meta.dirname, 'lua-scheduler.lua')));

/**
 * A Lua resource in a real Lua 5.4 VM (wasmoon) with scheduler.lua's rules (lua-scheduler.lua).
 * Every value it exchanges with other resources crosses as msgpack bytes, packed and unpacked as
 * lua-cmsgpack does (lua-pack.ts, lua-unpack.ts): event payloads both ways, export calls both
 * ways and their answers, and function references go through the server's event bus and funcref
 * registry like a JS resource's.
 */
export class LuaResource {
  private readonly events = new Set<string>();
  private readonly lua: LuaWasm;
  private readonly packer: LuaPacker;
  private readonly coroutines: LuaCoroutines;
  private routines: LuaRoutines | undefined;
  /** Registry slots of the functions Citizen.CreateThread was given, in order. */
  private readonly pendingThreads: number[] = [];
  private closed = false;
  /** Chunks running through `run`, which starts the threads they create when they end. */
  private running = 0;
  private threadsScheduled = false;
  /** Threads in Citizen.Wait, woken by one tick of the resource (`sleep`). */
  private sleepers: { at: number; wake: () => void }[] = [];
  private sleepTicker = false;

  private constructor(
    readonly runtime: JsRuntime,
    private readonly engine: LuaEngine,
  ) {
    this.lua = engine.global.lua;
    this.packer = new LuaPacker(this.lua, { refFor: (L, index) => this.refFor(L, index) });
    this.coroutines = new LuaCoroutines(engine.global, (where, error) =>
      this.log(formatScriptError(where, error)),
    );
  }

  static async create(runtime: JsRuntime): Promise<LuaResource> {
    return LuaResource.attach(runtime, await LuaResource.engine());
  }

  /** A fresh Lua VM; no proxies, no null userdata: values reach Lua only through lua-unpack.ts. */
  static engine(): Promise<LuaEngine> {
    return new LuaFactory().createEngine({ injectObjects: false, enableProxy: false });
  }

  /** The resource on a VM made beforehand, so its first chunk can run as the resource starts. */
  static attach(runtime: JsRuntime, engine: LuaEngine): LuaResource {
    const resource = new LuaResource(runtime, engine);
    resource.loadScheduler();
    // The runtime is this resource's place in the event bus: after its JS listeners (none unless
    // a test adds some), the event goes to the Lua handlers.
    const jsDispatch = runtime.dispatch.bind(runtime);
    runtime.dispatch = (event, payload, source) => {
      jsDispatch(event, payload, source);
      resource.dispatch(event, payload, source);
    };
    return resource;
  }

  get name(): string {
    return this.runtime.name;
  }

  /**
   * Runs a chunk as FXServer loads a file (scheduler.lua: inside CreateThreadNow, a coroutine, so
   * an async export's value comes back directly), then the threads it created; its result, as
   * wasmoon reads Lua values back (a table with keys 1..n is an array, any other an object).
   */
  async run(code: string): Promise<unknown> {
    return this.chunk(code, () => this.runThreads());
  }

  /**
   * Runs a file as FXServer loads a resource's script: the chunk, then the threads it created,
   * each up to its first wait (a thread that waits goes on in later ticks, the load does not
   * wait for it: a framework that reads its database after start has an empty list meanwhile).
   */
  async load(code: string): Promise<void> {
    await this.chunk(code, async () => {
      for (let slot = this.pendingThreads.shift(); slot !== undefined; slot = this.pendingThreads.shift())
        this.spawnThread(slot).catch(() => {}); // printed by the coroutine runner
    });
  }

  /** A chunk in a coroutine; the threads it makes wait for it to end (`then` starts them). */
  private async chunk(code: string, then: () => Promise<void>): Promise<unknown> {
    const { done } = this.coroutines.spawn((thread) => {
      thread.loadString(code);
      return 0;
    }, 'chunk');
    this.running++;
    try {
      const result = await done;
      await then();
      return result;
    } finally {
      this.running--;
    }
  }

  /** Same as run (kept for callers written when only threads could await). */
  thread(code: string): Promise<unknown> {
    return this.run(code);
  }

  close(): void {
    this.closed = true;
    this.engine.global.close();
  }

  private get kernel() {
    return this.runtime.kernel;
  }

  /** Loads lua-scheduler.lua under FXServer's chunk name, handing it the host functions. */
  private loadScheduler(): void {
    const g = this.engine.global;
    const { lua } = this;
    g.set('print', (...args: unknown[]) => this.log(args.map(luaToString).join('\t')));
    g.set('GetCurrentResourceName', () => this.name);
    const source = schedulerSource();
    const at = lua.module._malloc(source.length);
    lua.module.HEAPU8.set(source, at);
    const loaded = lua.luaL_loadbufferx(g.address, at, source.length, SCHEDULER_NAME, null);
    lua.module._free(at);
    if (loaded === LuaReturn.Ok) {
      g.pushValue(
        luaHostFunctions({
          name: this.name,
          kernel: this.kernel,
          lua,
          packer: this.packer,
          coroutines: this.coroutines,
          pushFuncRef: (L, ref) => this.pushFuncRef(L, ref),
          log: (text) => this.log(text),
          // RegisterResourceAsEventHandler, as scheduler.lua calls it: FXServer's event order
          // (handler-order.ts, 'registration') counts Lua resources like JS ones.
          registerEvent: (name) => {
            this.events.add(name);
            this.kernel.bus.handles(this.name, name);
          },
          setup: (routines) => {
            this.routines = routines;
          },
          createThread: (slot) => this.createThread(slot),
          native: (name, args) => callNative(this.runtime, name, args),
          sleep: (ms) => this.sleep(ms),
        }),
      );
      if (lua.lua_pcallk(g.address, 1, 0, 0, 0, null) === LuaReturn.Ok) return;
    }
    throw new Error(lua.lua_tolstring(g.address, -1, null));
  }

  /**
   * Citizen.Wait: scheduler.lua keeps the waiting threads with their wake time and, on each tick of
   * the resource, resumes those whose time has come (`curTime >= wakeTime`): Wait(0) is the next
   * frame. One setTick of the resource does the same for every sleeper.
   */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.sleepers.push({ at: this.kernel.now() + ms, wake: resolve });
      if (this.sleepTicker) return;
      this.sleepTicker = true;
      const setTick = this.runtime.realm.global.setTick as (cb: () => void) => unknown;
      setTick(() => this.wakeSleepers());
    });
  }

  private wakeSleepers(): void {
    if (this.sleepers.length === 0) return;
    const now = this.kernel.now();
    const due = this.sleepers.filter((s) => now >= s.at);
    if (due.length === 0) return;
    this.sleepers = this.sleepers.filter((s) => now < s.at);
    for (const sleeper of due) sleeper.wake();
  }

  /** scheduler.lua's event routine, when this resource has a handler for the event. */
  private dispatch(event: string, payload: Uint8Array, source: string): void {
    if (this.closed || !this.events.has(event)) return;
    const { lua } = this;
    this.coroutines.call(this.routines!.onEvent, (L) => {
      lua.lua_pushstring(L, event);
      pushLuaBytes(lua, L, payload);
      lua.lua_pushstring(L, source);
      return 3;
    });
  }

  /**
   * MakeFunctionReference: a ref other resources can call (through scheduler.lua's call-ref
   * routine, with the caller as the invoking resource); forgotten when the last holder lets go.
   */
  private refFor(L: number, index: number): string {
    const { lua } = this;
    lua.lua_pushvalue(L, index);
    const slot = lua.luaL_ref(L, LUA_REGISTRYINDEX);
    const call = (args: Uint8Array) => {
      if (this.closed) throw new Error(`${this.name} is closed`);
      return this.coroutines.call(this.routines!.callRef, (C) => {
        lua.lua_rawgeti(C, LUA_REGISTRYINDEX, BigInt(slot));
        pushLuaBytes(lua, C, args);
        return 2;
      });
    };
    return this.kernel.refs.create(
      this.name,
      (args, caller) => this.kernel.bus.enter(caller, this.name, () => call(args)),
      () => this.closed || lua.luaL_unref(this.engine.global.address, LUA_REGISTRYINDEX, slot),
    );
  }

  /** funcref_mt.__unpack: `{ __cfx_functionReference = ref }` with the funcref metatable. */
  private pushFuncRef(L: number, ref: string): void {
    const { lua } = this;
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushstring(L, ref);
    lua.lua_setfield(L, -2, '__cfx_functionReference');
    lua.lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(this.routines!.funcrefMt));
    lua.lua_setmetatable(L, -2);
    this.kernel.refs.retain(ref);
  }

  /**
   * A thread made by a chunk `run` runs when the chunk ends; one made elsewhere (an event handler,
   * a ref call, another thread) on the next frame, as scheduler.lua starts new threads on its tick.
   */
  private createThread(slot: number): void {
    this.pendingThreads.push(slot);
    if (this.running > 0 || this.threadsScheduled || this.closed) return;
    this.threadsScheduled = true;
    const setTimer = this.runtime.realm.global.setTimeout as (cb: () => void, ms: number) => unknown;
    setTimer(() => {
      this.threadsScheduled = false;
      // Side by side: a thread that loops with Citizen.Wait does not hold back the others.
      for (let slot = this.pendingThreads.shift(); slot !== undefined; slot = this.pendingThreads.shift())
        this.spawnThread(slot).catch(() => {}); // printed by the coroutine runner
    }, 0);
  }

  private spawnThread(slot: number): Promise<unknown> {
    const { lua } = this;
    return this.coroutines.spawn((thread) => {
      lua.lua_rawgeti(thread.address, LUA_REGISTRYINDEX, BigInt(slot));
      lua.luaL_unref(thread.address, LUA_REGISTRYINDEX, slot);
      return 0;
    }, 'thread').done;
  }

  private async runThreads(): Promise<void> {
    for (let slot = this.pendingThreads.shift(); slot !== undefined; slot = this.pendingThreads.shift())
      await this.spawnThread(slot);
  }

  private log(text: string): void {
    this.kernel.log.write(this.name, text);
  }
}

function luaToString(value: unknown): string {
  return value === undefined || value === null ? 'nil' : String(value);
}
