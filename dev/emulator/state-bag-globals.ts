import type { JsRuntime } from './js-runtime';

type Fn = (...args: unknown[]) => unknown;

/**
 * main.js `NewStateBag`, `GlobalState`, `Player(id).state`, `Entity(e).state`: a Proxy whose reads
 * call GetStateBagValue and whose writes pack the value with msgpack and call SetStateBagValue
 * (`state.set(k, v, replicated)`; `state[k] = v` replicates on the server).
 */
export function defineStateBagGlobals(runtime: JsRuntime, natives: Record<string, Fn>): void {
  const g = runtime.realm.global;
  const pack = (v: unknown) => runtime.packer.pack(v);
  const newStateBag = (bag: string) =>
    new Proxy(
      {},
      {
        get(_t, key) {
          if (key === 'set') {
            return (k: unknown, v: unknown, replicated: unknown) => {
              const payload = pack(v);
              natives.SetStateBagValue!(bag, k, payload, payload.length, replicated);
            };
          }
          return natives.GetStateBagValue!(bag, key);
        },
        set(_t, key, value) {
          const payload = pack(value);
          natives.SetStateBagValue!(bag, key, payload, payload.length, true);
          return true;
        },
      },
    );
  const playerHandler: ProxyHandler<{ __data: number }> = {
    get: (t, key) => (key === 'state' ? newStateBag(`player:${t.__data}`) : null),
    set: () => {
      throw new runtime.realm.Error('Not allowed at this time.');
    },
  };
  const entityHandler: ProxyHandler<{ __data: number }> = {
    get: (t, key) => {
      if (key !== 'state') return null;
      const netId = (g.NetworkGetNetworkIdFromEntity as Fn)(t.__data);
      (g.EnsureEntityStateBag as Fn)(t.__data);
      return newStateBag(`entity:${String(netId)}`);
    },
    set: () => {
      throw new runtime.realm.Error('Not allowed at this time.');
    },
  };
  Object.assign(g, {
    NewStateBag: newStateBag,
    GlobalState: newStateBag('global'),
    Player: (id: unknown) =>
      typeof id === 'number' || typeof id === 'string'
        ? new Proxy({ __data: Number(id) }, playerHandler)
        : id,
    Entity: (ent: unknown) => (typeof ent === 'number' ? new Proxy({ __data: ent }, entityHandler) : ent),
  });
}
