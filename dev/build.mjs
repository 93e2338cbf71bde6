// Builds the resource bundle (dist/server.js) and the dev tools (dist/dev/*.mjs).
import { copyFileSync, cpSync, existsSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The owner's panel page: one small script and one style sheet (uPlot's and ours), inlined into
// the resource bundle below, so the resource serves them itself and the page fetches nothing else.
const page = await build({
  entryPoints: ['src/panel/page/app.ts'],
  outdir: 'dist/panel',
  bundle: true,
  minify: true,
  write: false,
  platform: 'browser',
  target: 'es2020',
  format: 'iife',
  legalComments: 'none',
  logLevel: 'warning',
});
const pageFile = (ext) => page.outputFiles.find((file) => file.path.endsWith(ext))?.text ?? '';
const panelJs = pageFile('.js');
const panelCss = pageFile('.css');

// FXServer runs the bundle as a classic script on Node 22 with a global `require`
// resolving from the resource root, so every dependency goes inside the file.
await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: {
    __ROSTER_VERSION__: JSON.stringify(pkg.version),
    __PANEL_JS__: JSON.stringify(panelJs),
    __PANEL_CSS__: JSON.stringify(panelCss),
  },
});

// Dev tools run on the host Node; their npm dependencies stay external.
const devEntries = {
  sandbox: 'dev/sandbox.ts',
  'mock-api': 'dev/mock-roster/cli.ts',
  bench: 'dev/bench/index.ts',
  package: 'dev/package.ts',
  'panel-screenshot': 'dev/panel-screenshot.ts',
};
const present = Object.fromEntries(Object.entries(devEntries).filter(([, file]) => existsSync(file)));
if (Object.keys(present).length > 0) {
  await build({
    entryPoints: present,
    outdir: 'dist/dev',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    define: { __ROSTER_VERSION__: JSON.stringify(pkg.version) },
  });
  // The emulator's Lua scheduler is read beside the code that loads it (dev/emulator/lua-resource.ts).
  copyFileSync('dev/emulator/lua-scheduler.lua', 'dist/dev/lua-scheduler.lua');
  // So is the ConnectQueue stand-in's Lua (dev/stand-ins/connect-queue.ts).
  copyFileSync('dev/stand-ins/connectqueue.lua', 'dist/dev/connectqueue.lua');
  // The framework stand-ins are resources of their own, loaded from their folders (dev/frameworks).
  cpSync('dev/frameworks', 'dist/dev/frameworks', { recursive: true });
  // ox_core is TypeScript: its stand-in is built into the script its manifest names.
  await build({
    entryPoints: ['dev/frameworks/ox_core/server.ts'],
    outfile: 'dist/dev/frameworks/ox_core/server.js',
    bundle: true,
    platform: 'neutral',
    format: 'iife',
    logLevel: 'warning',
  });
}
