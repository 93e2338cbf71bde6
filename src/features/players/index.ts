import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { attachLifecycle, type LifecycleDeps, loadOnlinePlayers } from '../../roster/fivem/lifecycle';

const SWEEP_MS = 60_000;
/** Connecting players can spend minutes downloading before they join; forget them after this. */
const CONNECTING_MAX_AGE_MS = 15 * 60_000;

/**
 * Players from their temporary id to their final id, until they leave.
 * At start, the players already online (a restart) are registered and loaded; every minute,
 * connecting players that never joined are forgotten, and the features sweep what they hold.
 */
export function attachPlayers(context: RosterContext): Feature {
  const { players, clock, logger, features } = context;
  const lifecycle: LifecycleDeps = {
    online: () => context.online,
    players,
    clock,
    dropped: (entry) => features.dropped(entry),
  };
  attachLifecycle(lifecycle);
  return {
    start() {
      const online = loadOnlinePlayers(lifecycle);
      if (online > 0) logger.info(`loading ${online} player(s) already online.`);
      context.schedule.every(SWEEP_MS, () => {
        players.sweep(clock.now(), CONNECTING_MAX_AGE_MS);
        features.sweep();
      });
    },
  };
}
