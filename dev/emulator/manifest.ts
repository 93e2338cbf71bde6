import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The server scripts a `fxmanifest.lua` lists, in order: `server_script 'a'`,
 * `server_scripts { 'a', 'b' }`, and the shared_script forms (they run on the server too).
 * Enough of Lua's syntax for manifests; globs are not expanded.
 */
export function manifestServerScripts(root: string): string[] {
  const source = readFileSync(path.join(root, 'fxmanifest.lua'), 'utf8').replace(/--.*$/gm, '');
  const files: string[] = [];
  const re = /\b(server_scripts?|shared_scripts?)\s*(\{[^}]*\}|\(?\s*(['"])[^'"]*\3\s*\)?)/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    for (const s of (m[2] ?? '').matchAll(/(['"])([^'"]*)\1/g)) files.push(s[2]!);
  }
  return files;
}
