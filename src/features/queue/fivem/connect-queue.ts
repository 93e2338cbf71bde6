import { errorMessage } from '../../../platform/error-message';
import { fx } from '../../../platform/natives';
import type { Clock, Logger } from '../../../platform/ports';

/** ConnectQueue's resource name, as its README and the QBCore recipe install it. */
export const CONNECT_QUEUE = 'connectqueue';

/**
 * ConnectQueue's `Queue` table as it reaches JS. Its methods are declared `function Queue:X(...)`,
 * so a caller outside Lua passes `self` first (shared/sh_queue.lua: `Queue:OnJoin`,
 * `Queue:AddPriority`); none of them reads it, and an empty table keeps the argument list free
 * of a leading nil (a hole Lua's `table.unpack` may stop at).
 */
interface QueueTable {
  OnJoin?: (self: object, callback: JoinCallback, resource: string) => unknown;
  AddPriority?: (self: object, id: string, power: number, tempSeconds?: number) => unknown;
}

/** What ConnectQueue calls for each connecting player: `allow()` lets them on, `allow(reason)` refuses. */
export type JoinCallback = (src: number | string, allow: (reason?: string) => void) => void;

/** ConnectQueue as the resource found it. */
export interface ConnectQueueLink {
  /** How it was found, for `roster doctor`. */
  describe(): string;
  /**
   * A temporary priority for `license` (lowercase, as ConnectQueue's single-id path keys it): it
   * counts when ConnectQueue places the player, which follows the `OnJoin` callbacks at once.
   * Power 0 takes back what is left of one set before (see below); with none, nothing is sent.
   */
  setPriority(license: string, power: number, tempSeconds: number): boolean;
}

type ExportsProxy = Record<string, Record<string, (...args: unknown[]) => unknown>>;

/**
 * Registers `onJoin` with ConnectQueue through its `OnJoin`, now if it runs and again each time it
 * starts (a restarted ConnectQueue starts with no callbacks). The resource name passed with it is
 * what ConnectQueue uses to drop our callback when this resource stops.
 */
export function linkConnectQueue(
  resource: string,
  onJoin: JoinCallback,
  logger: Logger,
  clock: Clock,
): ConnectQueueLink {
  let queue: QueueTable | null = null;
  let state = 'not running';
  /** License → until when (epoch ms) the running ConnectQueue holds the power set for it. */
  const granted = new Map<string, number>();
  const register = () => {
    // Once per ConnectQueue instance: started in the same frame before this resource (server.cfg
    // at boot), it is found running here and its queued onServerResourceStart still follows. Its
    // onResourceStop walks the callbacks forward with table.remove (sh_queue.lua 737-741), so of
    // two of ours side by side one would stay behind this resource's restart and fail every join.
    if (queue !== null) return;
    const found = queueTable();
    if (found === null) {
      state = 'running, but neither GetQueueExports nor Exports answered';
      logger.warn(`${CONNECT_QUEUE} is running but offers no Queue table: queue priority is not set there.`);
      return;
    }
    if (typeof found.OnJoin !== 'function' || typeof found.AddPriority !== 'function') {
      state = 'running, but too old (no OnJoin/AddPriority)';
      logger.warn(`${CONNECT_QUEUE} has no Queue.OnJoin: update it to set queue priority from the roster.`);
      return;
    }
    try {
      found.OnJoin({}, onJoin, resource);
    } catch (error) {
      state = `running, but OnJoin failed: ${errorMessage(error)}`;
      logger.warn(`could not register with ${CONNECT_QUEUE}: ${state}`);
      return;
    }
    queue = found;
    granted.clear();
    state = 'running; priority is set through its OnJoin';
    logger.info(`${CONNECT_QUEUE} found: members get their queue priority before it places them.`);
  };
  const add = (id: string, power: number, tempSeconds: number): boolean => {
    if (queue?.AddPriority === undefined) return false;
    try {
      queue.AddPriority({}, id, power, tempSeconds);
      return true;
    } catch (error) {
      logger.warn(`${CONNECT_QUEUE} AddPriority failed: ${errorMessage(error)}`);
      return false;
    }
  };
  if (fx.GetResourceState(CONNECT_QUEUE) === 'started') register();
  fx.on('onServerResourceStart', (name: string) => {
    if (name === CONNECT_QUEUE) register();
  });
  // onResourceStop comes at once (onServerResourceStop only on the next frame, after a restart in
  // the same frame may have registered with the new instance already).
  fx.on('onResourceStop', (name: string) => {
    if (name !== CONNECT_QUEUE) return;
    queue = null;
    state = 'stopped';
  });
  return {
    describe: () => `${CONNECT_QUEUE}: ${state}`,
    setPriority(license, power, tempSeconds) {
      const id = license.toLowerCase();
      const now = clock.now();
      for (const [held, until] of granted) if (until <= now) granted.delete(held);
      if (power > 0) {
        if (!add(id, power, tempSeconds)) return false;
        granted.set(id, now + tempSeconds * 1000);
        return true;
      }
      const until = granted.get(id);
      if (until === undefined) return true;
      // A member who lost their power reconnects while the old one still counts. ConnectQueue
      // cannot take a temporary priority back (RemovePriority clears only its permanent list) and
      // any number it holds places a player ahead of those it holds none for (sh_queue.lua
      // AddToQueue): 0, the least, for what is left of the old one.
      granted.delete(id);
      return add(id, 0, Math.ceil((until - now) / 1000));
    },
  };
}

/**
 * Whether the connecting client `tempId` is still there. One that closed the game is removed from
 * the server's clients (InitConnectMethod.cpp: the request's cancel handler lets go of its
 * deferral, and with it the holder that removes the client), after which the player natives
 * answer null (MakeClientFunction).
 */
export function stillConnecting(tempId: string): boolean {
  return fx.GetPlayerName(tempId) !== null;
}

/** `GetQueueExports` (current copies) or `Exports` (the original's name for the same table). */
function queueTable(): QueueTable | null {
  const exportsOf = (globalThis as unknown as { exports: ExportsProxy }).exports[CONNECT_QUEUE];
  for (const name of ['GetQueueExports', 'Exports']) {
    try {
      const table = exportsOf?.[name]?.();
      if (table && typeof table === 'object') return table as QueueTable;
    } catch {
      // Not this name in this copy: try the next.
    }
  }
  return null;
}
