import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The repository root, found by walking up from `start` to the folder holding fxmanifest.lua:
 * the sandbox runs both from dev/ (vitest) and from .build/dev/ (`npm start`).
 */
export function repoRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'fxmanifest.lua')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no fxmanifest.lua above ${start}`);
  }
}

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/server.js when it is missing or older than src/; returns whether it built. */
export function ensureBundle(root: string): boolean {
  const bundle = join(root, 'dist/server.js');
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= newestChange(join(root, 'src'))) return false;
  execFileSync(process.execPath, ['dev/build.mjs'], { cwd: root, stdio: 'inherit' });
  return true;
}

/** A resource folder as an owner installs it: fxmanifest.lua, the bundle and config.json. */
export function resourceFolder(root: string, config: Record<string, unknown>): string {
  const folder = mkdtempSync(join(tmpdir(), 'roster-sandbox-'));
  mkdirSync(join(folder, 'dist'));
  copyFileSync(join(root, 'fxmanifest.lua'), join(folder, 'fxmanifest.lua'));
  copyFileSync(join(root, 'dist/server.js'), join(folder, 'dist/server.js'));
  writeFileSync(join(folder, 'config.json'), JSON.stringify(config, null, 2));
  return folder;
}
