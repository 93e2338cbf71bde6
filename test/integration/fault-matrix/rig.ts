import { rmSync } from 'node:fs';
import { type Decision, FxServer, type ScriptResource } from '../../../dev/emulator';
import { expectNoUnhandledRejections, resourceFolder } from '../harness';
import { stalledMs } from '../loop-stalls';
import { keyLeaks } from './cells';
import { WireLog } from './wire';

/** A decision and how long the player waited for it. */
export interface Timed {
  name: string;
  decision: Decision;
  waitedMs: number;
  /** How long the test process's event loop stood still meanwhile (a busy machine, not the resource). */
  stalledMs: number;
}

/** The roster events other resources hear, recorded on every side (and searched for the key). */
export const ROSTER_EVENTS = ['roster:ready', 'roster:playerLoaded', 'roster:playerUpdated'] as const;

/** The emulator running the resource, and the other resource that watches it. */
export interface Emulator {
  server: FxServer;
  folder: string;
  caller: ScriptResource;
}

/** Starts the emulator and the resource with `config`; the `secret` convars only the resource may read. */
export async function startEmulator(
  config: Record<string, unknown>,
  convars: Record<string, string>,
  secret: readonly string[],
): Promise<Emulator> {
  const folder = resourceFolder(config);
  const server = new FxServer({
    convars,
    convarPermissions: secret.map((name) => ['roster', name] as const),
  });
  await server.start();
  server.startResource('roster', folder);
  return { server, folder, caller: server.createScriptResource('caller') };
}

/**
 * One row's world, on either side: the emulator running the resource, the services it talks to
 * (the side's own), and what the row reads back from them.
 */
export abstract class RowRig {
  readonly server: FxServer;
  readonly folder: string;
  readonly caller: ScriptResource;
  /** `[event, ...args]` of every roster event another resource received, as JSON. */
  readonly events: string[] = [];
  /** What the resource's client wrote to the faulted service and had answered, as it happened. */
  readonly wire: WireLog;

  protected constructor(emulator: Emulator, faultedOrigin: string, events: readonly string[]) {
    this.server = emulator.server;
    this.folder = emulator.folder;
    this.caller = emulator.caller;
    this.wire = new WireLog((origin) => origin === faultedOrigin);
    for (const event of events) {
      this.caller.on(event, (...args: unknown[]) => this.events.push(JSON.stringify([event, ...args])));
    }
  }

  /** Arrival times of the requests the faulted service counts against the row's limit, sorted. */
  abstract requestTimes(): number[];
  /** The keys the resource holds: none may show up anywhere. */
  protected abstract keys(): string[];
  /** Closes the side's services. */
  protected abstract closeServices(): Promise<void>;

  /** The roster resource's own log, one line each. */
  rosterLog(): string[] {
    return this.server.log.of('roster');
  }

  /** What the gate logged as the basis of a player's decision, e.g. `roster` or `service unavailable, policy`. */
  basisOf(name: string): string | undefined {
    const pattern = new RegExp(`^${name} (?:admitted|refused) \\((.*)\\)$`);
    for (const line of this.rosterLog()) {
      const found = pattern.exec(line);
      if (found) return found[1];
    }
    return undefined;
  }

  /** Where a key (whole, its secret, or a piece of it) shows up: log, events, state bags, client events, files. */
  keyLeaks(): string[] {
    return keyLeaks(this.server, this.events, this.folder, this.keys());
  }

  async close(): Promise<void> {
    this.wire.stop();
    this.server.stop();
    await this.closeServices();
    expectNoUnhandledRejections(this.server);
    rmSync(this.folder, { recursive: true, force: true });
  }

  /** Connects a player with these identifiers; resolves with the decision and the wait. */
  protected connectWith(name: string, identifiers: string[]): Promise<Timed> {
    const started = Date.now();
    const connection = this.server.connectPlayer({ name, identifiers });
    return connection.decision.then((decision) => {
      const now = Date.now();
      return { name, decision, waitedMs: now - started, stalledMs: stalledMs(started, now) };
    });
  }
}
