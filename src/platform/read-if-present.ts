import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** A file of the resource folder as text, or `null` when it does not exist (yet). */
export function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Replaces a file of the resource folder whole: written to a temporary file beside it, then renamed
 * over it, so a crash mid-write leaves the previous content whole. No fsync (the callers say why).
 */
export function replaceFile(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
