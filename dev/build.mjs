// Builds the resource bundle (dist/server.js, committed: the repository is the resource) and the
// dev tools (.build/dev/*.mjs, never committed).
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_PATH, buildResourceBundle, packageVersion, repoRoot } from './resource-bundle.mjs';

const bundle = await buildResourceBundle();
const bundleFile = join(repoRoot, BUNDLE_PATH);
// Written only when it changed, so a build from unchanged sources leaves the file (and git) alone.
if (!existsSync(bundleFile) || readFileSync(bundleFile, 'utf8') !== bundle) {
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  writeFileSync(bundleFile, bundle);
}

// Dev tools run on the host Node; their npm dependencies stay external. Two folders below the
// repository, like their sources in dev/, so paths they find from their own place hold in both.
const devOut = join(repoRoot, '.build/dev');
const devEntries = {
  sandbox: 'dev/sandbox.ts',
  'mock-api': 'dev/mock-roster/cli.ts',
  bench: 'dev/bench/index.ts',
  package: 'dev/package.ts',
  'panel-screenshot': 'dev/panel-screenshot.ts',
};
const present = Object.fromEntries(
  Object.entries(devEntries).filter(([, file]) => existsSync(join(repoRoot, file))),
);
if (Object.keys(present).length > 0) {
  await build({
    absWorkingDir: repoRoot,
    entryPoints: present,
    outdir: devOut,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    define: { __ROSTER_VERSION__: JSON.stringify(packageVersion()) },
  });
  // The emulator's Lua scheduler is read beside the code that loads it (dev/emulator/lua-resource.ts).
  copyFileSync(join(repoRoot, 'dev/emulator/lua-scheduler.lua'), join(devOut, 'lua-scheduler.lua'));
  // So is the ConnectQueue stand-in's Lua (dev/stand-ins/connect-queue.ts).
  copyFileSync(join(repoRoot, 'dev/stand-ins/connectqueue.lua'), join(devOut, 'connectqueue.lua'));
  // The framework stand-ins are resources of their own, loaded from their folders (dev/frameworks).
  cpSync(join(repoRoot, 'dev/frameworks'), join(devOut, 'frameworks'), { recursive: true });
  // ox_core is TypeScript: its stand-in is built into the script its manifest names.
  await build({
    absWorkingDir: repoRoot,
    entryPoints: ['dev/frameworks/ox_core/server.ts'],
    outfile: join(devOut, 'frameworks/ox_core/server.js'),
    bundle: true,
    platform: 'neutral',
    format: 'iife',
    logLevel: 'warning',
  });
}
