import type { Schedule } from '../../kernel/schedule';
import type { Clock } from '../../platform/ports';
import type { OnlinePlayers } from '../../roster/online-players';

/**
 * Re-reads of everyone online for gaps are at least this far apart; a gap meanwhile is answered
 * when it is due. The cache's records are made last known at every gap, at once (no request).
 */
export const GAP_REREAD_SPACING_MS = 10 * 60_000;

export interface GapRereadDeps {
  online: Pick<OnlinePlayers, 'refreshOnline'>;
  cache: { markAllStale(): void };
  schedule: Schedule;
  clock: Clock;
  /** What else re-reads for a gap, on the same spacing (the roster mirror's full read). */
  alsoReread?: () => void;
}

/**
 * What a gap in the audit feed costs: everyone online is read again at once (batched, 100 a
 * request), and every other record the cache holds becomes a last known answer only, so each of
 * those members is read again at their next join. That is the full re-read of the members the
 * server holds, with the offline ones spread over their joins instead of spent at once from the
 * rate budget; an outage still finds their last known record.
 */
export function gapReread(deps: GapRereadDeps): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let owed = false;
  const run = () => {
    owed = false;
    last = deps.clock.now();
    void deps.online.refreshOnline('refresh');
    deps.alsoReread?.();
  };
  return () => {
    // What the cache holds may miss this gap's changes from now on, however soon after the last:
    // its records are last known only at once (no request); the re-reads are what is spaced.
    deps.cache.markAllStale();
    if (owed) return;
    const wait = last + GAP_REREAD_SPACING_MS - deps.clock.now();
    if (wait <= 0) run();
    else {
      owed = true;
      deps.schedule.once(wait, run);
    }
  };
}
