import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AliasMemory } from '../org-alias';

/** The organisation alias seen at the last start, in the resource folder (aliases only, never the key). */
export function aliasFile(resourcePath: string, name = 'training-org.json'): AliasMemory {
  const path = join(resourcePath, name);
  return {
    load() {
      try {
        const value = JSON.parse(readFileSync(path, 'utf8')) as { alias?: unknown; previous?: unknown };
        if (typeof value.alias !== 'string') return undefined;
        return {
          alias: value.alias,
          previous: typeof value.previous === 'string' ? value.previous : undefined,
        };
      } catch {
        return undefined;
      }
    },
    save(value) {
      try {
        writeFileSync(path, JSON.stringify(value));
      } catch {
        // Only `roster training` loses the rename note; nothing else depends on this file.
      }
    },
  };
}
