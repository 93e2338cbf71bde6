import { loadSnapshot, saveSnapshot } from '../../core/cache/snapshot';
import { snapshotFile } from '../../fivem/snapshot-file';
import type { Capability } from '../capability';
import type { RosterContext } from '../roster-context';

const SNAPSHOT_SAVE_MS = 5 * 60_000;

/**
 * The last-known members kept in `roster-snapshot.json`, so a restart during an outage still knows
 * them. Loaded when attached, before any player can be looked up; saved every few minutes and at
 * stop, synchronously, since FXServer tears the resource down right after `onResourceStop`.
 */
export function attachSnapshot(context: RosterContext): Capability {
  const { cache, clock, logger, resourcePath } = context;
  const snapshot = resourcePath ? snapshotFile(resourcePath) : null;
  if (snapshot === null) return {};
  const loaded = loadSnapshot(cache, snapshot, logger);
  if (loaded > 0) logger.info(`loaded ${loaded} last-known member(s) from the snapshot.`);
  const save = () => {
    try {
      saveSnapshot(cache, snapshot, clock.now());
    } catch (error) {
      logger.warn(`could not save the member snapshot: ${(error as Error).message}`);
    }
  };
  return {
    start: () => context.schedule.every(SNAPSHOT_SAVE_MS, save),
    stop: save,
  };
}
