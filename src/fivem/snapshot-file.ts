import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotStore } from '../core/cache/snapshot';
import { readIfPresent } from './read-if-present';

/**
 * The member snapshot as a file in the resource folder (the only place FXServer lets a resource
 * write). Written to a temporary file, flushed and renamed over the old one, so a crash mid-write
 * leaves the previous snapshot intact.
 */
export function snapshotFile(resourcePath: string, name = 'roster-snapshot.json'): SnapshotStore {
  const path = join(resourcePath, name);
  return {
    read: () => readIfPresent(path),
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
