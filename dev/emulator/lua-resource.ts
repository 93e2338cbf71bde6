import { type LuaEngine, LuaFactory } from 'wasmoon';
import type { JsRuntime } from './js-runtime';

type Fn = (...args: unknown[]) => unknown;

// The Lua side of scheduler.lua that callers need: `exports.res:fn(...)` (a function(self, ...),
// so the colon call's first argument is dropped), async results awaited only inside a
// coroutine, and threads from Citizen.CreateThread. Export errors use scheduler.lua's text.
const PRELUDE = `
local call_export, last_async = __cfx_call_export, __cfx_last_async
__cfx_call_export, __cfx_last_async = nil, nil
local pending_threads = {}
__cfx_pending_threads = pending_threads

Citizen = Citizen or {}
function Citizen.CreateThread(fn) pending_threads[#pending_threads + 1] = fn end
CreateThread = Citizen.CreateThread
function Citizen.Await(p) return p:await() end

exports = setmetatable({}, {
  __index = function(_, resource)
    return setmetatable({}, {
      __index = function(_, name)
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
 * the same name, so arguments and results cross as msgpack exactly like a JS caller's do.
 */
export class LuaResource {
  private constructor(
    readonly runtime: JsRuntime,
    private readonly engine: LuaEngine,
  ) {}

  static async create(runtime: JsRuntime): Promise<LuaResource> {
    const engine = await new LuaFactory().createEngine({ injectObjects: true });
    const log = (...args: unknown[]) => runtime.kernel.log.write(runtime.name, args.map(String).join('\t'));
    engine.global.set('print', log);
    engine.global.set('GetCurrentResourceName', () => runtime.name);
    let lastAsync = false;
    engine.global.set('__cfx_last_async', () => lastAsync);
    engine.global.set(
      '__cfx_call_export',
      (resource: string, name: string, packed: Record<string, unknown>) => {
        lastAsync = false;
        const n = Number(packed.n ?? 0);
        const args = Array.from({ length: n }, (_, i) => packed[String(i + 1)] ?? null);
        const table = (runtime.realm.global.exports as Record<string, Record<string, Fn>>)[resource]!;
        const result = table[name]!(...args);
        const thenable = result as { then?: unknown } | null;
        if (thenable && typeof thenable.then === 'function') {
          // A host Promise, so wasmoon recognises it and offers :await().
          lastAsync = true;
          return Promise.resolve(result);
        }
        return result;
      },
    );
    engine.doStringSync(PRELUDE);
    return new LuaResource(runtime, engine);
  }

  get name(): string {
    return this.runtime.name;
  }

  /** Runs a chunk on the main thread (not yieldable), then the threads it created. */
  async run(code: string): Promise<unknown> {
    const result = this.engine.doStringSync(code);
    await this.runThreads();
    return result;
  }

  /** Runs `code` as the body of a Citizen.CreateThread coroutine and returns its result. */
  async thread(code: string): Promise<unknown> {
    const result = await this.engine.doString(code);
    await this.runThreads();
    return result;
  }

  close(): void {
    this.engine.global.close();
  }

  private async runThreads(): Promise<void> {
    while (this.engine.doStringSync('return #__cfx_pending_threads') > 0) {
      await this.engine.doString('local fn = table.remove(__cfx_pending_threads, 1); fn()');
    }
  }
}
