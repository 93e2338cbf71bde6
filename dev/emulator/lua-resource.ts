import { LUA_REGISTRYINDEX, type LuaEngine, LuaFactory } from 'wasmoon';
import type { JsRuntime } from './js-runtime';
import { formatScriptError } from './kernel';
import { luaEventSource, toLuaValue } from './lua-values';

type Fn = (...args: unknown[]) => unknown;

// The Lua side of scheduler.lua that resources need: `exports.res:fn(...)` (a function(self, ...),
// so the colon call's first argument is dropped), async results awaited inside the coroutine
// every piece of Lua runs in, Citizen.CreateThread, and the event handler table
// (AddEventHandler/RemoveEventHandler/RegisterNetEvent with scheduler.lua's keys from 11 up).
const PRELUDE = `
local call_export, last_async, register_event = __cfx_call_export, __cfx_last_async, __cfx_register_event
local find_export = __cfx_find_export
__cfx_call_export, __cfx_last_async, __cfx_register_event, __cfx_find_export = nil, nil, nil, nil
local pending_threads = {}
__cfx_pending_threads = pending_threads

Citizen = Citizen or {}
function Citizen.CreateThread(fn) pending_threads[#pending_threads + 1] = fn end
CreateThread = Citizen.CreateThread
function Citizen.Await(p) return p:await() end

local event_handlers = {}
local event_key = 10

function AddEventHandler(name, fn)
  local entry = event_handlers[name]
  if not entry then entry = {}; event_handlers[name] = entry end
  entry.handlers = entry.handlers or {}
  event_key = event_key + 1
  entry.handlers[event_key] = fn
  register_event(name)
  return { key = event_key, name = name }
end

function RemoveEventHandler(data)
  if not data or not data.key or not data.name then
    error('Invalid event data passed to RemoveEventHandler()', 2)
  end
  event_handlers[data.name].handlers[data.key] = nil
end

function RegisterNetEvent(name, cb)
  local entry = event_handlers[name]
  if not entry then entry = {}; event_handlers[name] = entry end
  entry.safeForNet = true
  if cb then return AddEventHandler(name, cb) end
end
RegisterServerEvent = RegisterNetEvent

-- The host asks which handlers an event reaches (nil: none, or a net event not safe for net).
function __cfx_event_keys(name, source)
  local entry = event_handlers[name]
  if not entry or not entry.handlers then return nil end
  if source:sub(1, 3) == 'net' and not entry.safeForNet then
    print('event ' .. name .. ' was not safe for net')
    return nil
  end
  local keys = {}
  for key in pairs(entry.handlers) do keys[#keys + 1] = key end
  table.sort(keys)
  return keys
end

function __cfx_run_handler(name, key, args, n)
  local handler = event_handlers[name].handlers[key]
  if handler then handler(table.unpack(args, 1, n)) end
end

exports = setmetatable({}, {
  __index = function(_, resource)
    return setmetatable({}, {
      __index = function(_, name)
        -- scheduler.lua: an unknown export is an error at the caller, before any call.
        local missing = find_export(resource, name)
        if missing then error(missing, 2) end
        return function(self, ...)
          local ok, result = pcall(call_export, resource, name, table.pack(...))
          local is_async = ok and last_async()
          if not ok then
            error(('\\n^5 An error occurred while calling export \`%s\` in resource \`%s\`:\\n  %s\\n^5 ---'):format(name, resource, tostring(result)), 2)
          end
          if is_async then
            if coroutine.isyieldable() then return result:await() end
            return { __cfx_async_retval = result }
          end
          return result
        end
      end,
    })
  end,
})
`;

/**
 * A Lua resource in a real Lua 5.4 VM (wasmoon). Its exports calls go through a JS runtime of
 * the same name, so arguments and results cross as msgpack exactly like a JS caller's do, and
 * it receives events through that runtime's place in the event bus.
 */
export class LuaResource {
  private readonly events = new Set<string>();

  private constructor(
    readonly runtime: JsRuntime,
    private readonly engine: LuaEngine,
  ) {}

  static async create(runtime: JsRuntime): Promise<LuaResource> {
    // No proxies, no null userdata: JS values reach Lua as tables and nil (lua-values.ts).
    const engine = await new LuaFactory().createEngine({ injectObjects: false, enableProxy: false });
    const lua = new LuaResource(runtime, engine);
    const log = (...args: unknown[]) =>
      runtime.kernel.log.write(runtime.name, args.map(luaToString).join('\t'));
    engine.global.set('print', log);
    engine.global.set('GetCurrentResourceName', () => runtime.name);
    let lastAsync = false;
    engine.global.set('__cfx_last_async', () => lastAsync);
    engine.global.set('__cfx_register_event', (name: string) => void lua.events.add(name));
    const exportsOf = (resource: string) =>
      (runtime.realm.global.exports as Record<string, Record<string, Fn>>)[resource]!;
    engine.global.set('__cfx_find_export', (resource: string, name: string) => {
      try {
        exportsOf(resource)[name];
        return undefined;
      } catch (error) {
        return errorText(error);
      }
    });
    engine.global.set(
      '__cfx_call_export',
      (resource: string, name: string, packed: Record<string, unknown>) => {
        lastAsync = false;
        const n = Number(packed.n ?? 0);
        const args = Array.from({ length: n }, (_, i) => packed[String(i + 1)] ?? null);
        let result: unknown;
        try {
          result = exportsOf(resource)[name]!(...args);
        } catch (error) {
          // A host Error, so wasmoon hands Lua its message (the resource realm's is just a table).
          throw new Error(errorText(error));
        }
        const thenable = result as { then?: unknown } | null;
        if (thenable && typeof thenable.then === 'function') {
          // A host Promise, so wasmoon recognises it and offers :await().
          lastAsync = true;
          return Promise.resolve(result).then(toLuaValue);
        }
        return toLuaValue(result);
      },
    );
    engine.doStringSync(PRELUDE);
    // The runtime is this resource's place in the event bus: after its JS listeners (none unless
    // a test adds some), the event goes to the Lua handlers.
    const jsDispatch = runtime.dispatch.bind(runtime);
    runtime.dispatch = (event, payload, source) => {
      jsDispatch(event, payload, source);
      lua.dispatch(event, payload, source);
    };
    return lua;
  }

  get name(): string {
    return this.runtime.name;
  }

  /**
   * Runs a chunk as FXServer loads a file (scheduler.lua: inside CreateThreadNow, a coroutine, so
   * an async export's value comes back directly), then the threads it created; its result.
   */
  async run(code: string): Promise<unknown> {
    const result = await this.spawn(code, [], 'chunk');
    await this.runThreads();
    return result;
  }

  /** Same as run (kept for callers written when only threads could await). */
  thread(code: string): Promise<unknown> {
    return this.run(code);
  }

  close(): void {
    this.engine.global.close();
  }

  /**
   * scheduler.lua's event routine: `source` set from the event's source for the synchronous part
   * of the handlers, each handler in its own coroutine started at once (CreateThreadNow), then
   * `source` put back.
   */
  private dispatch(event: string, payload: Uint8Array, source: string): void {
    if (!this.events.has(event)) return;
    const g = this.engine.global;
    const keys = (g.get('__cfx_event_keys') as Fn)(event, source) as number[] | undefined;
    if (!keys || keys.length === 0) return;
    const data = this.runtime.packer.unpack(payload) ?? [];
    if (typeof data !== 'object') return;
    const list = Array.isArray(data) ? data : [];
    const args = toLuaValue(list);
    const last = g.get('source');
    g.set('source', luaEventSource(source));
    try {
      for (const key of keys) {
        // Printed as a SCRIPT ERROR in spawn; the event itself goes on.
        this.spawn('return __cfx_run_handler(...)', [event, key, args, list.length], `event ${event}`).catch(
          () => {},
        );
      }
    } finally {
      g.set('source', last ?? undefined);
    }
  }

  /**
   * A coroutine running `code` with `args`: its first part runs now, awaits resume it later. The
   * thread is anchored in the registry while it lives (not on the main stack, so threads can end
   * in any order). A Lua error is printed as a SCRIPT ERROR and rejects.
   */
  private spawn(code: string, args: readonly unknown[], where: string): Promise<unknown> {
    const g = this.engine.global;
    const thread = g.newThread();
    const ref = g.lua.luaL_ref(g.address, LUA_REGISTRYINDEX);
    const release = () => g.lua.luaL_unref(g.address, LUA_REGISTRYINDEX, ref);
    try {
      thread.loadString(code);
      for (const arg of args) thread.pushValue(arg);
    } catch (error) {
      release();
      return Promise.reject(error);
    }
    return thread.run(args.length).then(
      (values) => {
        release();
        return values[0];
      },
      (error: unknown) => {
        release();
        this.runtime.kernel.log.write(this.name, formatScriptError(where, error));
        throw error;
      },
    );
  }

  private async runThreads(): Promise<void> {
    while (this.engine.doStringSync('return #__cfx_pending_threads') > 0) {
      await this.spawn('local fn = table.remove(__cfx_pending_threads, 1); fn()', [], 'thread');
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Object && 'message' in error ? String(error.message) : String(error);
}

function luaToString(value: unknown): string {
  return value === undefined || value === null ? 'nil' : String(value);
}
