import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AceStore } from './aces';
import { CommandRegistry } from './commands';
import { Connection } from './connection';
import { ConvarStore } from './convars';
import { EventBus } from './event-bus';
import { FuncRefRegistry } from './funcrefs';
import { arrange, type HandlerOrder } from './handler-order';
import { ResourceHttpServer } from './http-server';
import { JsRuntime } from './js-runtime';
import { formatScriptError, type Kernel } from './kernel';
import { LogSink } from './log-sink';
import { LuaResource } from './lua-resource';
import { manifestServerScripts } from './manifest';
import { createPacker, hostMsgpack, type Packer } from './msgpack-codec';
import { installNatives, type NativeHost } from './natives';
import { installNotEmulated } from './not-emulated';
import { DropCause, type DropCauseValue, DropReason, type PlayerRecord, PlayerRegistry } from './players';
import { ResourceRejections, type UnhandledRejection } from './resource-rejections';
import { ScriptResource } from './script-resource';
import { cfgLines, ServerConsole } from './server-console';
import { StateBags } from './state-bags';

export type { Decision } from './connection';

export interface FxServerOptions {
  /** `set name value` before anything starts. */
  readonly convars?: Readonly<Record<string, string>>;
  /** `add_ace principal object allow|deny` (mode defaults to allow). */
  readonly aces?: readonly (readonly [string, string, ('allow' | 'deny')?])[];
  /** `add_principal child parent`. */
  readonly principals?: readonly (readonly [string, string])[];
  /**
   * server.cfg text: each line runs as a console command (`system.console`) when the server is
   * made, after `convars`, `aces` and `principals`; e.g. `add_ace resource.roster command.add_principal allow`.
   */
  readonly serverCfg?: string;
  /** `add_convar_permission resource read convar`, as [resource, convar]. */
  readonly convarPermissions?: readonly (readonly [string, string])[];
  /** Echo log lines to stdout as they are written. */
  readonly echo?: boolean;
  /**
   * A faster server frame than FXServer's 20 a second. Only for a test or tool that says why
   * (`because`): everything the resource does waits on frames, so a faster one hides latency.
   */
  readonly fastFrame?: { readonly everyMs: number; readonly because: string };
  /**
   * The order resources' event handlers and ticks run in (handler-order.ts). FXServer does not
   * promise one: `'start'` (the default) is start order, `'reverse'` its reverse, `'registration'`
   * FXServer's own event order (the resource that registered a handler for the event last runs
   * first), `{ seed }` a mixed order per seed. Run a test under several to catch code that
   * depends on another resource's handler running before or after its own.
   */
  readonly order?: HandlerOrder;
}

/** GameServer.cpp: the main thread's frame timer is `1000 / 20` ms; ServerResources.cpp ticks resources on it. */
export const FRAME_MS = 1000 / 20;

export interface ConnectOptions {
  readonly name: string;
  readonly identifiers: readonly string[];
  readonly endpoint?: string;
  /**
   * false: the client is admitted but never loads (game closed or crashed on the loading
   * screen): it never gets a final id, so no playerJoining and no playerDropped (GameServer.cpp
   * fires playerDropped only for clients that connected). Its temp id stays known to natives.
   */
  readonly loads?: boolean;
  /**
   * The client's connection GUID (InitConnectMethod.cpp `guid`). The game makes a new one for
   * each connection attempt (NetLibrary.cpp), so it defaults to a fresh one: a player connecting
   * again, with the same license, does not replace the session still on the server. Give the GUID
   * of a client still known (`connection.record.guid`) for the same attempt arriving again: that
   * client is dropped first (`playerDropped` 'Reconnecting' if it had a final id).
   */
  readonly guid?: string;
}

/** An event a resource sent to clients with emitNet/TriggerClientEvent. */
export interface ClientEvent {
  readonly from: string;
  readonly event: string;
  readonly target: unknown;
  readonly args: unknown[];
}

interface ResourceEntry {
  readonly name: string;
  readonly root: string;
  readonly scripts: readonly string[] | undefined;
  state: 'started' | 'stopped';
  runtime: JsRuntime | null;
}

/** The FXServer the tests, the sandbox and the benchmark run resources in. See README.md. */
export class FxServer implements Kernel, NativeHost {
  readonly log: LogSink;
  readonly bus: EventBus;
  readonly refs = new FuncRefRegistry();
  readonly players = new PlayerRegistry();
  readonly convars = new ConvarStore();
  readonly aces = new AceStore();
  readonly commands = new CommandRegistry();
  readonly bags = new StateBags();
  private readonly console = new ServerConsole(this);
  readonly clientEvents: ClientEvent[] = [];
  /** The game port's HTTP server (SetHttpHandler), listening on loopback once `start()` ran. */
  readonly http = new ResourceHttpServer(this.refs);
  /** Host ms between two server frames (FRAME_MS unless `fastFrame` asked otherwise). */
  readonly frameMs: number;
  /**
   * Server frames run so far: the emulator's own clock for tests. A busy machine runs frames late
   * rather than stretching what a resource does in them, so a bound in frames holds under load.
   */
  frames = 0;
  /**
   * Rejections no resource handled (FXServer only prints Node's warning for them, which the
   * resource's log gets too). A test harness asserts this stays empty.
   */
  readonly unhandledRejections: readonly UnhandledRejection[];
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly luaResources = new Map<string, LuaResource>();
  private readonly connections = new Map<number, Connection>();
  private readonly joinQueue: Connection[] = [];
  private readonly neverLoading = new Set<Connection>();
  private readonly tickWaiters: (() => void)[] = [];
  private readonly queuedEvents: { event: string; args: unknown[] }[] = [];
  private readonly host: Packer;
  private loop: ReturnType<typeof setInterval> | null = null;
  private readonly rejections: ResourceRejections;

  constructor(options: FxServerOptions = {}) {
    this.log = new LogSink(options.echo ?? false);
    this.rejections = new ResourceRejections(this.log);
    this.unhandledRejections = this.rejections.recorded;
    const fast = options.fastFrame;
    if (fast && (!(fast.everyMs > 0) || !fast.because.trim())) {
      throw new Error('fastFrame needs everyMs > 0 and a reason (because)');
    }
    this.frameMs = fast ? Math.min(fast.everyMs, FRAME_MS) : FRAME_MS;
    this.bus = new EventBus(
      (resource, error) => this.log.write(resource, formatScriptError('event', error)),
      options.order ?? 'start',
    );
    // The server's own functions (deferrals, setKickReason) are refs owned by 'server'; they get
    // the calling resource first, as ClientDeferral.cpp keys state by the current runtime.
    this.host = createPacker(hostMsgpack(), {
      toRef: (fn) =>
        this.refs.create('server', (args, caller) => {
          fn(caller, ...(this.host.unpack(args) as unknown[]));
          return this.host.pack([]);
        }),
      fromRef:
        (ref) =>
        (...args: unknown[]) =>
          this.host.unpack(this.refs.invoke(ref, this.host.pack(args), null)),
    });
    for (const [k, v] of Object.entries(options.convars ?? {})) this.convars.set(k, v);
    for (const [p, o, m] of options.aces ?? []) this.aces.addAce(p, o, m ?? 'allow');
    for (const [c, p] of options.principals ?? []) this.aces.addPrincipal(c, p);
    for (const [r, c] of options.convarPermissions ?? []) this.convars.addReadPermission(r, c);
    for (const line of cfgLines(options.serverCfg ?? '')) this.executeCommand(line);
  }

  /**
   * `http://127.0.0.1:<port>`: where FXServer's game port would answer HTTP; a resource's
   * `SetHttpHandler` function serves `${httpUrl}/<resource>/…`. Set once `start()` resolved.
   */
  get httpUrl(): string {
    const url = this.http.url;
    if (!url) throw new Error('the HTTP server listens once start() resolved');
    return url;
  }

  setHttpHandler(resource: string, packedRef: Uint8Array): void {
    this.http.setHandler(resource, packedRef);
  }

  now(): number {
    return Date.now();
  }

  /**
   * Starts the frame loop: host `setInterval(…, frameMs)`, like GameServer.cpp's repeating uv
   * timer. Install vitest fake timers before this; then each 50 faked ms run one frame.
   */
  async start(): Promise<void> {
    if (this.loop) return;
    this.loop = setInterval(() => this.tick(), this.frameMs);
    await this.http.listen();
    this.rejections.listen();
  }

  /** Stops every resource and the tick loop. */
  stop(): void {
    for (const name of [...this.resources.keys()].reverse()) {
      if (this.resources.get(name)?.state === 'started') this.stopResource(name);
    }
    if (this.loop) clearInterval(this.loop);
    this.loop = null;
    this.http.close();
    this.rejections.unlisten();
  }

  /** Resolves after the next server frame ran. */
  nextTick(): Promise<void> {
    return new Promise((resolve) => this.tickWaiters.push(resolve));
  }

  /**
   * One server frame: queued events (ResourceEventComponent.cpp: the event manager's OnTick
   * triggers what QueueEvent2 queued), resource timers and ticks (timer.js onTick), then joins
   * waiting for their final id. Microtasks run once the host's frame callback returns: FXServer
   * runs `process._tickCallback()` at the end of each resource's onTick (timer.js) with an
   * explicit microtask queue (NodeScriptRuntime.cpp, MicrotasksPolicy::kExplicit), so none runs
   * between two timers of a tick.
   */
  tick(): void {
    this.frames++;
    for (const { event, args } of this.queuedEvents.splice(0)) this.triggerQueued(event, args);
    const now = this.now();
    // ResourceScriptingComponent.cpp ticks resources from an unordered_map keyed by address.
    const order = this.bus.order === 'registration' ? 'start' : this.bus.order;
    for (const entry of arrange([...this.resources.values()], order, 'tick')) {
      const runtime = entry.runtime;
      if (runtime) this.bus.enter(null, entry.name, () => runtime.timers.tick(now));
    }
    for (const connection of this.joinQueue.splice(0)) this.join(connection);
    for (const waiter of this.tickWaiters.splice(0)) waiter();
  }

  // ── resources ────────────────────────────────────────────────────────────

  /**
   * Loads a resource from `root` (scripts from its fxmanifest.lua unless given) in a fresh
   * context and fires onResourceStart. A script that throws is logged and the rest still load.
   */
  startResource(name: string, root: string, scripts?: readonly string[]): JsRuntime {
    const existing = this.resources.get(name);
    if (existing?.state === 'started') throw new Error(`resource ${name} is already started`);
    const entry: ResourceEntry = { name, root, scripts, state: 'stopped', runtime: null };
    this.resources.set(name, entry);
    return this.boot(entry);
  }

  stopResource(name: string): void {
    const entry = this.resources.get(name);
    if (entry?.state !== 'started' || !entry.runtime) return;
    // ResourceEventComponent.cpp: onResourceStop fires to every resource before teardown;
    // onServerResourceStop is queued (QueueEvent2) to the next frame, and main.js clears other
    // resources' cached exports of this one only when it arrives.
    this.emitFromServer('onResourceStop', name);
    this.queueEvent('onServerResourceStop', name);
    this.bus.detach(name);
    this.http.resourceStopped(name);
    entry.runtime.stop(this.rejections.stopping(entry.runtime));
    this.luaResources.get(name)?.close();
    this.luaResources.delete(name);
    this.console.resourceStopped(name);
    entry.runtime = null;
    entry.state = 'stopped';
  }

  restartResource(name: string): JsRuntime {
    const entry = this.resources.get(name);
    if (!entry) throw new Error(`no such resource ${name}`);
    this.stopResource(name);
    return this.boot(entry);
  }

  /** A JS resource with no files that a test drives: `.exports`, `.emit`, `.on`, `.eval`. */
  createScriptResource(name: string, root = process.cwd()): ScriptResource {
    return new ScriptResource(this.startResource(name, root, []));
  }

  /** A Lua resource a test drives: `await lua.run(code)`, `await lua.thread(code)`. */
  async createLuaResource(name: string, root = process.cwd()): Promise<LuaResource> {
    return LuaResource.create(this.startResource(name, root, []));
  }

  /**
   * A Lua resource from its folder: the `.lua` server scripts its fxmanifest.lua lists, run in
   * order in one Lua VM (each as a file in CreateThreadNow; threads they make go on in later
   * ticks). The VM is made first, so the files have run (up to their first wait) before other
   * resources hear `onServerResourceStart` on the next frame. `stopResource` closes the VM.
   */
  async startLuaResource(name: string, root: string): Promise<LuaResource> {
    const engine = await LuaResource.engine();
    const lua = LuaResource.attach(this.startResource(name, root, []), engine);
    this.luaResources.set(name, lua);
    for (const file of manifestServerScripts(root).filter((f) => f.endsWith('.lua'))) {
      await lua.load(readFileSync(path.join(root, file), 'utf8'));
    }
    return lua;
  }

  /**
   * A Lua resource started from one piece of code rather than a folder: the code has run (up to
   * its first wait) before other resources hear `onServerResourceStart` on the next frame.
   * Resolves once the code and the threads it made at load have finished.
   */
  async startLuaCode(name: string, code: string, root = process.cwd()): Promise<LuaResource> {
    const engine = await LuaResource.engine();
    const lua = LuaResource.attach(this.startResource(name, root, []), engine);
    this.luaResources.set(name, lua);
    await lua.run(code);
    return lua;
  }

  resource(name: string): JsRuntime | null {
    return this.resources.get(name)?.runtime ?? null;
  }

  resourcePath(name: string): string | null {
    return this.resources.get(name)?.root ?? null;
  }

  resourceState(name: string): string {
    return this.resources.get(name)?.state ?? 'missing';
  }

  private boot(entry: ResourceEntry): JsRuntime {
    const runtime = new JsRuntime(entry.name, entry.root, this);
    this.rejections.tag(runtime);
    installNatives(runtime, this);
    installNotEmulated(runtime.realm.global, (m) => new runtime.realm.Error(m));
    if (!this.emitFromServer('onResourceStarting', entry.name)) {
      throw new Error(`resource ${entry.name} was prevented from starting`);
    }
    this.bus.attach(runtime);
    // ResourceScriptingComponent.cpp: a file that fails to load is reported ("Failed to load
    // script") and the next one loads; the resource is started all the same and onResourceStart
    // fires (NodeScriptRuntime.cpp RunFileInternal prints "Error loading script …").
    runtime.load(entry.scripts ?? manifestServerScripts(entry.root), (file, error) => {
      this.log.write(entry.name, `Error loading script ${file} in resource ${entry.name}: ${String(error)}`);
      this.log.write(entry.name, `Failed to load script ${file}.`);
    });
    entry.runtime = runtime;
    entry.state = 'started';
    this.http.resourceStarted(entry.name);
    this.emitFromServer('onResourceStart', entry.name);
    // ResourceEventComponent.cpp: onServerResourceStart is queued (QueueEvent2) to the next frame.
    this.queueEvent('onServerResourceStart', entry.name);
    return runtime;
  }

  // ── events ───────────────────────────────────────────────────────────────

  /** Triggers an event from the server itself (no invoking resource); false if canceled. */
  emitFromServer(event: string, ...args: unknown[]): boolean {
    return this.bus.trigger(event, this.host.pack(args), '', null);
  }

  /** QueueEvent2: the event reaches resources on the next frame, before their timers run. */
  queueEvent(event: string, ...args: unknown[]): void {
    this.queuedEvents.push({ event, args });
  }

  private triggerQueued(event: string, args: unknown[]): void {
    // main.js's own onServerResourceStop listener, registered before any script's: it empties
    // the stopped resource's cached exports in every runtime.
    if (event === 'onServerResourceStop' && typeof args[0] === 'string') {
      for (const other of this.resources.values()) other.runtime?.forgetExportsOf(args[0]);
    }
    this.emitFromServer(event, ...args);
  }

  /** An event from a client: source `net:<id>`, reaches only net-safe handlers. */
  emitNet(event: string, playerId: number, ...args: unknown[]): void {
    // GameServer.cpp ProcessPacket and WithPacketHandler.h: a client's packets (its net events
    // too) are handled inside `client->EnterPrincipalScope()`, so IsAceAllowed there is the player's.
    const principals = this.playerPrincipals(playerId) ?? [];
    this.aces.runAs(principals, () => this.bus.trigger(event, this.host.pack(args), `net:${playerId}`, null));
  }

  sendToClients(from: string, event: string, target: unknown, payload: Uint8Array): void {
    this.clientEvents.push({ from, event, target, args: this.host.unpack(payload) as unknown[] });
    if (this.clientEvents.length > 5000) this.clientEvents.splice(0, 1000);
  }

  // ── players ──────────────────────────────────────────────────────────────

  /** Starts a connection: playerConnecting runs now, `decision` settles after playerJoining. */
  connectPlayer(options: ConnectOptions): Connection {
    const guid = options.guid ?? this.players.nextGuid();
    // InitConnectMethod.cpp: once the ticket is verified, a client with the same GUID is dropped
    // (DropClientWithReason CLIENT_REPLACED "Reconnecting", queued to the main thread before
    // playerConnecting is), whatever its state: playerDropped only if it had a final id.
    const previous = this.players.findByGuid(guid);
    if (previous) this.drop(previous, 'Reconnecting', DropCause.replaced);
    const record = this.players.connect(
      {
        name: options.name,
        identifiers: [...options.identifiers],
        endpoint: options.endpoint ?? identifierValue(options.identifiers, 'ip:') ?? '127.0.0.1',
      },
      guid,
    );
    const connection = new Connection(
      record,
      (c) => this.joinQueue.push(c),
      (c) => {
        this.connections.delete(c.tempId);
        this.players.remove(c.record);
      },
    );
    this.connections.set(record.tempId, connection);
    if (options.loads === false) this.neverLoading.add(connection);
    const deferrals = {
      defer: (caller: string | null) => caller && connection.defer(caller),
      update: (caller: string | null, ...args: unknown[]) => caller && connection.update(caller, args),
      presentCard: (caller: string | null, card: unknown) => caller && connection.presentCard(caller, card),
      done: (caller: string | null, ...args: unknown[]) => caller && connection.done(caller, args),
      handover: (caller: string | null, data: unknown) => caller && connection.addHandover(data),
    };
    const setKickReason = (_caller: string | null, ...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === 'string') connection.kickReason = args[0];
    };
    const payload = this.host.pack([options.name, setKickReason, deferrals]);
    const allowed = this.bus.trigger('playerConnecting', payload, `internal-net:${record.tempId}`, null);
    connection.ranEventsWith(!allowed);
    return connection;
  }

  /** The player quit: playerDropped for joined players, the connection ends for connecting ones. */
  dropPlayer(id: number, reason = 'Exiting'): void {
    const record = this.players.find(id);
    if (record) this.drop(record, reason, DropCause.client);
  }

  /** Joined players (final ids). */
  playerList(): { id: number; name: string; identifiers: readonly string[] }[] {
    return this.players
      .joined()
      .map((p) => ({ id: p.netId, name: p.info.name, identifiers: p.info.identifiers }));
  }

  /**
   * Client.h UpdateCachedPrincipalValues: `identifier.<each identifier>` then `player.<net id>`
   * (the temp id while connecting, InitConnectMethod.cpp SetNetId; the final id once joined).
   */
  principalsOf(record: PlayerRecord): string[] {
    return [...record.info.identifiers.map((id) => `identifier.${id}`), `player.${record.netId}`];
  }

  /** DropPlayer from a resource. */
  dropRecord(record: PlayerRecord, reason: string, resource: string): void {
    this.drop(record, reason, DropCause.resource(resource));
  }

  private drop(record: PlayerRecord, reason: string, cause: DropCauseValue): void {
    if (record.id === null) {
      // PlayerScriptFunctions.cpp DROP_PLAYER: a client that has not connected (no final id)
      // cannot be dropped by a resource; the player closing the game ends the connection.
      if (cause.reason === DropReason.resource) return;
      const connection = this.connections.get(record.tempId);
      if (cause.reason === DropReason.replaced) {
        this.connections.delete(record.tempId);
        this.players.remove(record);
        if (connection) this.neverLoading.delete(connection);
        connection?.replace();
      } else if (connection?.completed) {
        // Admitted and never loaded: the server forgets the temp client with no event.
        this.connections.delete(record.tempId);
        this.players.remove(record);
      } else connection?.reject(reason);
      return;
    }
    // GameServer.cpp DropClientInternal: playerDropped only for final ids, with (reason,
    // resourceName, dropReason), triggered before the client leaves the registry, so its name
    // and identifiers are still readable in the handler.
    this.bus.trigger(
      'playerDropped',
      this.host.pack([reason, cause.resource, cause.reason]),
      `internal-net:${record.netId}`,
      null,
    );
    this.players.remove(record);
    this.bags.remove(`player:${record.netId}`);
  }

  private join(connection: Connection): void {
    if (!this.connections.has(connection.tempId)) return;
    // The client got its admission but never connected: it keeps its temp id, and nothing
    // (playerJoining, playerDropped) ever tells a resource; `decision` never settles.
    if (this.neverLoading.delete(connection)) return;
    this.connections.delete(connection.tempId);
    const id = this.players.assignFinalId(connection.record);
    this.bags.create(`player:${id}`);
    // ClientRegistry.cpp: playerJoining with the final id as source and the temp id as a string.
    this.bus.trigger(
      'playerJoining',
      this.host.pack([String(connection.tempId)]),
      `internal-net:${id}`,
      null,
    );
    connection.joined(id);
  }

  // ── console ──────────────────────────────────────────────────────────────

  /**
   * Runs a console line as `system.console` (source 0), a player's command (source = their id),
   * or, with `principal`, a resource's ExecuteCommand. See server-console.ts for the ACL rules.
   */
  executeCommand(raw: string, source = 0, principal?: string): void {
    this.console.execute(raw, source, principal);
  }

  hasResource(name: string): boolean {
    return this.resources.has(name);
  }

  playerPrincipals(source: number): string[] | null {
    const record = this.players.find(source);
    return record ? this.principalsOf(record) : null;
  }
}

function identifierValue(identifiers: readonly string[], prefix: string): string | undefined {
  return identifiers.find((i) => i.startsWith(prefix))?.slice(prefix.length);
}
