import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotStore } from '../core/cache/snapshot';

/**
 * The member snapshot as a file in the resource folder (the only place FXServer lets a resource
 * write). Written to a temporary file, flushed and renamed over the old one, so a crash mid-write
 * leaves the previous snapshot intact.
 */
export function snapshotFile(resourcePath: string, name = 'roster-snapshot.json'): SnapshotStore {
  const path = join(resourcePath, name);
  return {
    read() {
      try {
        return readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
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
