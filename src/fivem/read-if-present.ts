import { readFileSync } from 'node:fs';

/** A file of the resource folder as text, or `null` when it does not exist (yet). */
export function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
