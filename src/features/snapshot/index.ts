import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { errorMessage } from '../../platform/error-message';
import { onScheduledRestart, onServerShuttingDown } from '../../platform/txadmin-events';
import { mirrorHandle } from '../mirror/handle';
import { communityKey, decodeMirror, mirrorJson, type SavedMirror } from '../mirror/saved-mirror';
import { snapshotFile } from './fivem/snapshot-file';
import { loadSnapshot, type SnapshotSave, saveSnapshot, saveSnapshotInSlices } from './snapshot';

const SNAPSHOT_SAVE_MS = 5 * 60_000;

/**
 * The last-known members and the roster mirror kept in `roster-snapshot.json`, so a restart during
 * an outage still knows them and a restart otherwise costs an audit catch-up, not a full read.
 * The members are loaded when attached, before any player can be looked up; the mirror is handed
 * to it at start, before the key check. Saved every few minutes a piece per server frame, the file
 * written in the background (a 50,000-member mirror is about 11 MB: written at once, it would hold
 * the game thread for several frames); at stop at once, since FXServer tears the resource down
 * right after `onResourceStop` and nothing asynchronous runs after it. Under txAdmin, also at once
 * on its shutdown notice (the process is killed a few seconds later, often before `onResourceStop`
 * comes; the largest save takes a fraction of a second), and in the background at each warning of
 * a scheduled restart.
 */
export function attachSnapshot(context: RosterContext): Feature {
  const { cache, clock, logger, resourcePath, handles } = context;
  const snapshot = resourcePath ? snapshotFile(resourcePath) : null;
  if (snapshot === null) return {};
  const loaded = loadSnapshot(cache, snapshot, logger);
  if (loaded && loaded.members > 0)
    logger.info(`loaded ${loaded.members} last-known member(s) from the snapshot.`);
  let mirror: SavedMirror | null = null;
  if (loaded?.mirror !== undefined) {
    const decoded = decodeMirror(loaded.mirror);
    if ('saved' in decoded) mirror = decoded.saved;
    else logger.warn(`the roster mirror in the snapshot is unreadable (${decoded.problem}) and was ignored.`);
  }
  // Whose roster the cache's members are: the verified key's community, else the file's own.
  const community = () => (context.identity ? communityKey(context.identity.community) : loaded?.community);
  const what = (): SnapshotSave => {
    const part = handles.get(mirrorHandle)?.toSave() ?? null;
    return { ...(part ? { mirror: mirrorJson(part) } : {}), community: community() };
  };
  const failed = (error: unknown) =>
    logger.warn(`could not save the member snapshot: ${errorMessage(error)}`);
  const saveNow = (): boolean => {
    try {
      saveSnapshot(cache, snapshot, clock.now(), what());
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };
  // FXServer's timers fire on the next server frame at the earliest.
  const nextFrame = () => new Promise<void>((resolve) => clock.setTimeout(resolve, 0));
  const saveInBackground = async () => {
    try {
      await saveSnapshotInSlices(cache, snapshot, clock.now(), what(), nextFrame);
    } catch (error) {
      failed(error);
    }
  };
  onServerShuttingDown(logger, () => {
    if (saveNow()) logger.info('saved the snapshot before the shutdown.');
  });
  onScheduledRestart(logger, () => void saveInBackground());
  return {
    start: () => {
      if (mirror) handles.get(mirrorHandle)?.restore(mirror);
      // Handed over once: the mirror holds it from now on.
      mirror = null;
      // The schedule waits for one save to end before it counts to the next.
      context.schedule.every(SNAPSHOT_SAVE_MS, saveInBackground);
    },
    ready(identity) {
      // Another community's members (the key was changed), or a file that does not say whose:
      // never a last known answer for this roster, not even in an outage.
      if (!loaded || loaded.members === 0 || loaded.community === communityKey(identity.community)) return;
      const dropped = cache.dropStale();
      if (dropped > 0)
        logger.info(
          `forgot ${dropped} last-known member(s) from the snapshot: ${loaded.community === undefined ? 'it does not say whose roster they are' : "they are another community's"}.`,
        );
    },
    // A background save under way is dropped: this one is newer.
    stop: () => void saveNow(),
  };
}
