import { join } from 'node:path';
import type { DayStore } from '../../../http';
import { readIfPresent, replaceFile } from '../../../platform/read-if-present';

/**
 * The key's day count as a small file in the resource folder, replaced by writing a temporary
 * file and renaming it over the old one (a crash mid-write leaves the previous count whole). No
 * fsync: it is a few kilobytes written every minute on the game thread, and a machine crash costs
 * at most the minute's count since the last write.
 */
export function dayFile(resourcePath: string, name = 'roster-day.json'): DayStore {
  const path = join(resourcePath, name);
  return {
    read: () => readIfPresent(path),
    write: (text) => replaceFile(path, text),
  };
}
