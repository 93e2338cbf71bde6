import { errorMessage } from '../../../platform/error-message';
import { type Deferrals, fx } from '../../../platform/natives';
import { formatMessage } from '../messages';
import { type GateDeps, Join } from './join';
import { TickedDeferrals } from './ticked-deferrals';

/** The join gate once attached. */
export interface Gate {
  /**
   * Ends every open deferral now, by the outage policy (the resource is stopping): FXServer never
   * clears a deferral itself, so a player left in it would wait forever.
   */
  stop(): void;
  /**
   * The server is about to be shut down: every open join, and every join from now on, is refused
   * with `message` rather than left waiting for a server that will be gone. Returns how many
   * were waiting.
   */
  shutDown(message: string): number;
}

/** A join still open, as the gate ends it from outside. */
interface OpenJoin {
  /** Decides at once, on what is known, by the outage policy. */
  decideNow(why: string): void;
  /** Refuses with `message`, whatever the roster would say. */
  refuse(message: string): void;
}

/** Attaches the join gate: defers every connection and always ends it within `gate.timeoutSeconds`. */
export function attachGate(deps: GateDeps): Gate {
  const open = new Set<OpenJoin>();
  let stopped = false;
  /** Set once the server is shutting down: what every join is refused with. */
  let closedWith: string | null = null;
  fx.on('playerConnecting', (name: string, _setKickReason: unknown, deferrals: Deferrals) => {
    // `source` is only valid during the synchronous part of the handler: copy it first.
    const tempId = String(fx.source);
    const ticked = new TickedDeferrals(deferrals);
    const player = typeof name === 'string' ? name : '';
    const join = new Join(deps, tempId, player, ticked);
    const handle: OpenJoin = {
      decideNow(why) {
        join.decideByPolicy(why);
        ticked.flush();
      },
      refuse: (message) => join.refuse(message, 'the server is shutting down'),
    };
    if (stopped) {
      handle.decideNow('the resource is stopping');
      return;
    }
    if (closedWith !== null) {
      handle.refuse(closedWith);
      return;
    }
    open.add(handle);
    join.onFinish = () => open.delete(handle);
    join.run().catch((error: unknown) => {
      // Never leave a deferral open: an unexpected failure is decided like an outage.
      deps.logger.error(`the join check of ${player || tempId} failed: ${errorMessage(error)}`);
      const { gate } = deps.config;
      join.finish(
        !gate.enabled || gate.onError === 'allow'
          ? undefined
          : formatMessage(gate.messages.unavailable, { player, community: deps.community() }),
        'the join check failed',
      );
    });
  });
  return {
    stop() {
      stopped = true;
      for (const handle of [...open]) handle.decideNow('the resource stopped');
      open.clear();
    },
    shutDown(message) {
      closedWith = message;
      const waiting = [...open];
      for (const handle of waiting) handle.refuse(message);
      open.clear();
      return waiting.length;
    },
  };
}

export type { GateDeps } from './join';
