import type { Realm } from './resource-context';

type Fn = (...args: unknown[]) => unknown;

export interface ExportsDeps {
  readonly resource: string;
  readonly realm: Realm;
  on(event: string, listener: Fn): void;
  emit(event: string, ...args: unknown[]): void;
}

/** main.js maps txAdmin's exports to its real resource name. */
export const exportEventName = (resource: string, name: string): string =>
  `__cfx_export_${resource === 'txAdmin' ? 'monitor' : resource}_${name}`;

/**
 * The `exports` global of main.js: `exports(name, fn)` registers a handler for
 * `__cfx_export_<self>_<name>` that hands `fn` back through a funcref; `exports.res.fn` emits that
 * event synchronously, caches the funcref per resource (cleared on onServerResourceStop), and
 * turns any throw into FXServer's generic export error.
 */
export function createExports(deps: ExportsDeps): { exports: unknown; forget(resource: string): void } {
  const cache = new Map<string, Map<string, Fn>>();
  const { realm } = deps;

  const resourceProxy = (resource: string) =>
    new Proxy(
      {},
      {
        get(_target, key) {
          const name = String(key);
          let entries = cache.get(resource);
          if (!entries) {
            entries = new Map();
            cache.set(resource, entries);
          }
          if (!entries.has(name)) {
            deps.emit(exportEventName(resource, name), (exported: Fn) => {
              entries.set(name, exported);
            });
            if (!entries.has(name)) throw new realm.Error(`No such export ${name} in resource ${resource}`);
          }
          return (...args: unknown[]) => {
            try {
              // Read at call time: a function kept from before a stop finds the cache cleared.
              const fn = cache.get(resource)?.get(name) as Fn;
              return fn(...args);
            } catch {
              throw new realm.Error(
                `An error occurred while calling export ${name} of resource ${resource} - see above for details`,
              );
            }
          };
        },
        set() {
          throw new realm.Error('cannot set values on an export resource');
        },
      },
    );

  const exportsProxy = new Proxy(() => {}, {
    get: (_target, key) => resourceProxy(String(key)),
    apply(_target, _self, args: unknown[]) {
      if (args.length !== 2) throw new realm.Error('this needs 2 arguments');
      const [name, fn] = args as [string, Fn];
      deps.on(exportEventName(deps.resource, name), (setCB: unknown) => {
        (setCB as Fn)(fn);
      });
    },
    set() {
      throw new realm.Error('cannot set values on exports');
    },
  });

  return { exports: exportsProxy, forget: (resource) => cache.set(resource, new Map()) };
}
