import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let names: string[] | undefined;

/** Every server native name, read from the @citizenfx/server typings (natives_server.d.ts). */
export function serverNativeNames(): readonly string[] {
  if (!names) {
    const dts = readFileSync(require.resolve('@citizenfx/server/natives_server.d.ts'), 'utf8');
    names = [...new Set([...dts.matchAll(/declare function ([A-Z][A-Za-z0-9_]*)\s*\(/g)].map((m) => m[1]!))];
  }
  return names;
}

/**
 * Defines each server native the emulator does not provide as a function that throws
 * `not emulated: NAME`, so a missing one fails at once instead of reading as undefined.
 */
export function installNotEmulated(global: Record<string, unknown>, makeError: (m: string) => Error): void {
  for (const name of serverNativeNames()) {
    if (name in global) continue;
    global[name] = () => {
      throw makeError(`not emulated: ${name}`);
    };
  }
}
