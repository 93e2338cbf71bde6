import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { readIfPresent } from '../../../platform/read-if-present';
import type { BackgroundSnapshotStore, SnapshotWriter } from '../snapshot';

/**
 * Largest snapshot read: 50,000 mirrored members and 5,000 cached ones take about 11 MB. A larger
 * file is not one this resource wrote, and would be read and parsed on the game thread at start.
 */
const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/**
 * The member snapshot as a file in the resource folder (the only place FXServer lets a resource
 * write). Every write goes to a temporary file, flushed and renamed over the old one, so a crash
 * mid-write leaves the previous snapshot whole. A background write has a temporary file of its own
 * and is renamed on the game thread, after a check that no write at once came meanwhile: the
 * newer snapshot is never replaced by an older one.
 */
export function snapshotFile(resourcePath: string, name = 'roster-snapshot.json'): BackgroundSnapshotStore {
  const path = join(resourcePath, name);
  let background: BackgroundWrite | null = null;
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
      background?.drop();
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
    begin() {
      background?.drop();
      background = new BackgroundWrite(path, `${path}.saving.tmp`);
      return background;
    },
  };
}

/** A write through the thread pool: nothing but a rename at the end runs on the game thread. */
class BackgroundWrite implements SnapshotWriter {
  current = true;
  private readonly opened: Promise<FileHandle>;

  constructor(
    private readonly path: string,
    private readonly temporary: string,
  ) {
    this.opened = open(temporary, 'w');
    // Awaited by the first append; a write dropped before it must not leave a rejection unheard.
    this.opened.catch(() => undefined);
  }

  async append(text: string): Promise<void> {
    if (!this.current) return;
    const handle = await this.opened;
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at)).bytesWritten;
  }

  async finish(): Promise<boolean> {
    if (!this.current) return false;
    const handle = await this.opened;
    await handle.sync();
    await handle.close();
    // Checked and renamed in one step of the game thread: no write at once can come between.
    if (!this.current) return false;
    this.current = false;
    renameSync(this.temporary, this.path);
    return true;
  }

  async abandon(): Promise<void> {
    this.drop();
  }

  /** A write at once came, or this one failed: its file is removed and never put in place. */
  drop(): void {
    if (!this.current) return;
    this.current = false;
    this.opened.then((handle) => handle.close()).catch(() => undefined);
    rmSync(this.temporary, { force: true });
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    // Absent (or unreadable): reading it says which.
    return 0;
  }
}
