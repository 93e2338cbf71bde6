import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AceStore } from './aces';
import type { CommandRegistry } from './commands';
import type { ConvarStore } from './convars';
import type { JsRuntime } from './js-runtime';
import type { PlayerRecord, PlayerRegistry } from './players';
import { defineStateBagGlobals } from './state-bag-globals';
import type { StateBags } from './state-bags';

type Fn = (...args: unknown[]) => unknown;

/** The server state the natives read and change. */
export interface NativeHost {
  readonly players: PlayerRegistry;
  readonly convars: ConvarStore;
  readonly aces: AceStore;
  readonly commands: CommandRegistry;
  readonly bags: StateBags;
  resourcePath(name: string): string | null;
  resourceState(name: string): string;
  dropRecord(record: PlayerRecord, reason: string, resource: string): void;
  executeCommand(raw: string, source: number, principal?: string): void;
  principalsOf(record: PlayerRecord): string[];
  sendToClients(from: string, event: string, target: unknown, payload: Uint8Array): void;
  setHttpHandler(resource: string, packedRef: Uint8Array): void;
}

/** Resolves `file` inside `root`, or null when it escapes it (MetadataScriptFunctions.cpp). */
function insideRoot(root: string, file: unknown): string | null {
  if (typeof file !== 'string') return null;
  const full = path.resolve(root, file);
  const rel = path.relative(root, full);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : full;
}

/** The natives a JS resource gets as PascalCase globals, plus main.js's lowercase helpers. */
export function installNatives(runtime: JsRuntime, host: NativeHost): void {
  const { name } = runtime;
  const g = runtime.realm.global;
  const bus = runtime.kernel.bus;
  const player = (src: unknown) => host.players.find(src);

  const natives: Record<string, Fn> = {
    IsDuplicityVersion: () => true,
    GetCurrentResourceName: () => name,
    GetInvokingResource: () => bus.invokingResource(name),
    GetResourcePath: (res) => host.resourcePath(String(res)),
    GetResourceState: (res) => host.resourceState(String(res)),
    LoadResourceFile: (res, file) => {
      const root = host.resourcePath(String(res));
      const full = root && insideRoot(root, file);
      if (!full) return null;
      try {
        return readFileSync(full, 'utf8');
      } catch {
        return null;
      }
    },
    // Only the resource's own files, by default (MetadataScriptFunctions.cpp, SAVE_RESOURCE_FILE).
    SaveResourceFile: (res, file, data, length) => {
      if (res !== name || typeof data !== 'string') return false;
      const full = insideRoot(runtime.root, file);
      if (!full) return false;
      const n = Number(length);
      const bytes = Buffer.from(data, 'utf8');
      try {
        writeFileSync(full, n > 0 ? bytes.subarray(0, n) : bytes);
        return true;
      } catch {
        return false;
      }
    },
    GetConvar: (key, fallback) => host.convars.getString(name, String(key), fallback),
    GetConvarInt: (key, fallback) => host.convars.getInt(name, String(key), fallback),
    GetConvarFloat: (key, fallback) => host.convars.getFloat(name, String(key), fallback),
    GetConvarBool: (key, fallback) => {
      const v = host.convars.getInt(name, String(key), fallback);
      return typeof v === 'number' ? v !== 0 : v;
    },
    CancelEvent: () => bus.cancel(),
    WasEventCanceled: () => bus.wasCanceled(),
    GetNumPlayerIndices: () => host.players.joined().length,
    GetPlayerFromIndex: (i) => {
      const p = host.players.joined()[Number(i)];
      return p ? String(p.netId) : null;
    },
    GetNumPlayerIdentifiers: (src) => player(src)?.info.identifiers.length ?? 0,
    GetPlayerIdentifier: (src, i) => player(src)?.info.identifiers[Number(i)] ?? null,
    // PlayerScriptFunctions.cpp: plain prefix match, first in list order, null if none.
    GetPlayerIdentifierByType: (src, type) =>
      player(src)?.info.identifiers.find((id) => id.startsWith(String(type))) ?? null,
    GetNumPlayerTokens: (src) => (player(src) ? 0 : 0),
    GetPlayerToken: () => null,
    GetPlayerName: (src) => player(src)?.info.name ?? null,
    GetPlayerEndpoint: (src) => player(src)?.info.endpoint ?? null,
    GetPlayerPing: (src) => (player(src) ? 30 : 0),
    GetPlayerLastMsg: (src) => (player(src) ? 0 : 0),
    DropPlayer: (src, reason) => {
      const p = player(src);
      if (p) host.dropRecord(p, String(reason ?? ''), name);
    },
    // PlayerScriptFunctions.cpp IS_PLAYER_ACE_ALLOWED: the stack reset, the client's principals
    // pushed (ScopedPrincipalReset + EnterPrincipalScope); no such player answers false.
    IsPlayerAceAllowed: (src, object) => {
      const p = player(src);
      return p
        ? host.aces.runAlone(host.principalsOf(p), () => host.aces.checkCurrent(String(object)))
        : false;
    },
    // ResourceScriptFunctions.cpp IS_PRINCIPAL_ACE_ALLOWED: the stack reset, then only `principal`.
    IsPrincipalAceAllowed: (principal, object) =>
      host.aces.runAlone([String(principal)], () => host.aces.checkCurrent(String(object))),
    // ResourceScriptFunctions.cpp IS_ACE_ALLOWED: whoever is on the principal stack now; outside a
    // command or ExecuteCommand that is nobody, so `builtin.everyone` (se/Security.cpp).
    IsAceAllowed: (object) => host.aces.checkCurrent(String(object)),
    // Runs as `resource.<name>` (ResourceScriptFunctions.cpp, EXECUTE_COMMAND).
    ExecuteCommand: (raw) => host.executeCommand(String(raw), 0, `resource.${name}`),
    RegisterCommand: (command, handler, restricted) => {
      if (typeof handler !== 'function') return;
      // The handler crosses as a funcref: arguments are packed, as for any ref call.
      const ref = runtime.packer.unpack(runtime.packer.pack(handler)) as Fn;
      const fresh = host.commands.register({
        name: String(command),
        owner: name,
        restricted: Boolean(restricted),
        run: (source, args, raw) => ref(source, args, raw),
      });
      // ResourceScriptFunctions.cpp REGISTER_COMMAND: a taken name only swaps the handler. A new
      // one: the registering resource may always run it, and an unrestricted one is everyone's.
      if (!fresh) return;
      host.aces.addAce(`resource.${name}`, `command.${String(command)}`, 'allow');
      if (!restricted) host.aces.addAce('builtin.everyone', `command.${String(command)}`, 'allow');
    },
    emitNet: (event, target, ...args) =>
      host.sendToClients(name, String(event), target, runtime.packer.pack(args)),
    getPlayerIdentifiers: (src) => realmArray(runtime, player(src)?.info.identifiers ?? []),
    getPlayerTokens: () => realmArray(runtime, []),
    getPlayers: () =>
      realmArray(
        runtime,
        host.players.joined().map((p) => String(p.netId)),
      ),
    SetStateBagValue: (bag, key, payload, _length, replicated) =>
      host.bags.set(String(bag), String(key), payload as Uint8Array, Boolean(replicated)),
    GetStateBagValue: (bag, key) => {
      const bytes = host.bags.get(String(bag), String(key));
      return bytes ? runtime.packer.unpack(bytes) : null;
    },
    StateBagHasKey: (bag, key) => host.bags.get(String(bag), String(key)) !== undefined,
    GetStateBagKeys: (bag) => realmArray(runtime, host.bags.keys(String(bag))),
  };
  // ResourceHttpHandler.cpp SET_HTTP_HANDLER: the function crosses as a funcref (`_mfr`); a
  // non-function becomes a null ref there, which the emulator ignores.
  natives.SetHttpHandler = (handler) => {
    if (typeof handler === 'function') host.setHttpHandler(name, runtime.packer.pack(handler));
  };
  natives.TriggerClientEvent = natives.emitNet!;
  natives.TriggerLatentClientEvent = (event, target, _bps, ...args) =>
    natives.emitNet!(event, target, ...args);
  // A stopped resource runs no code in FXServer; here its late code calls natives that do nothing.
  for (const [key, native] of Object.entries(natives)) {
    natives[key] = (...args) => (runtime.alive ? native(...args) : undefined);
  }
  Object.assign(g, natives);
  defineStateBagGlobals(runtime, natives);
}

/** Arrays handed to the resource belong to its realm, as main.js builds them there. */
function realmArray(runtime: JsRuntime, items: readonly unknown[]): unknown[] {
  const list = new (runtime.realm.global.Array as ArrayConstructor)();
  list.push(...items);
  return list;
}
