import type { JsRuntime } from './js-runtime';

type Fn = (...args: unknown[]) => unknown;

/**
 * A JS resource with no files that a test drives from outside. Everything it does goes through
 * the same globals a real resource uses: `exports.roster.fn(...)` crosses msgpack and funcrefs.
 */
export class ScriptResource {
  constructor(readonly runtime: JsRuntime) {}

  get name(): string {
    return this.runtime.name;
  }

  /** The resource's `exports` global: `caller.exports.roster.getMember(1)`. */
  get exports(): Record<string, Record<string, Fn>> {
    return this.runtime.realm.global.exports as Record<string, Record<string, Fn>>;
  }

  /** `emit(event, ...args)` from this resource (source `""` for handlers). */
  emit(event: string, ...args: unknown[]): void {
    this.runtime.emit(event, ...args);
  }

  /** `on(event, listener)`: arguments arrive unpacked in this resource's realm. */
  on(event: string, listener: Fn): void {
    this.runtime.addListener(event, listener, false);
  }

  onNet(event: string, listener: Fn): void {
    this.runtime.addListener(event, listener, true);
  }

  /** Runs code in the resource's global scope and returns its completion value. */
  eval<T = unknown>(code: string): T {
    return this.runtime.evaluate(code) as T;
  }

  /** The resource's global object. */
  get global(): Record<string, unknown> {
    return this.runtime.realm.global;
  }
}
