import { closeSync, fsyncSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotStore } from '../core/cache/snapshot';
import { readIfPresent } from './read-if-present';

/**
 * Largest snapshot read: 50,000 mirrored members and 5,000 cached ones take a few MB. A larger
 * file is not one this resource wrote, and would be read and parsed on the game thread at start.
 */
const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/**
 * The member snapshot as a file in the resource folder (the only place FXServer lets a resource
 * write). Written to a temporary file, flushed and renamed over the old one, so a crash mid-write
 * leaves the previous snapshot intact.
 */
export function snapshotFile(resourcePath: string, name = 'roster-snapshot.json'): SnapshotStore {
  const path = join(resourcePath, name);
  return {
    read() {
      const size = sizeOf(path);
      if (size > MAX_SNAPSHOT_BYTES)
        throw new Error(
          `${name} is ${Math.round(size / 1024 / 1024)} MB, larger than a snapshot can be; it was ignored`,
        );
      return readIfPresent(path);
    },
    write(text) {
      const temporary = `${path}.tmp`;
      const fd = openSync(temporary, 'w');
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    },
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    // Absent (or unreadable): reading it says which.
    return 0;
  }
}
