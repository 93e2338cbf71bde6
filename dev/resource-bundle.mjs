// The resource bundle, dist/server.js: built in memory here, written by dev/build.mjs and compared
// with the committed file by dev/check-bundle.mjs. The file is committed so an owner can clone the
// repository into resources/ and start it as it is; the same sources must therefore give the same
// bytes on every machine: nothing in it may depend on the time, the folder or how node_modules is laid out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE_PATH = 'dist/server.js';

/** The version in package.json: the only outside value the bundle carries. */
export function packageVersion() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
}

/**
 * Paths in the bundle's comments are relative to the repository, and symlinks are kept as they
 * are: a node_modules linked from elsewhere would otherwise put that other place in the file.
 */
const common = {
  absWorkingDir: repoRoot,
  bundle: true,
  write: false,
  preserveSymlinks: true,
  logLevel: 'warning',
};

/** The owner's panel page: one small script and one style sheet (uPlot's and ours). */
async function panelPage() {
  const page = await build({
    ...common,
    entryPoints: ['src/features/panel/page/app.ts'],
    outdir: 'dist/panel',
    minify: true,
    platform: 'browser',
    target: 'es2020',
    format: 'iife',
    legalComments: 'none',
  });
  const file = (ext) => page.outputFiles.find((output) => output.path.endsWith(ext))?.text ?? '';
  return { js: file('.js'), css: file('.css') };
}

/** The text of dist/server.js. */
export async function buildResourceBundle() {
  const page = await panelPage();
  // FXServer runs the bundle as a classic script on Node 22 with a global `require` resolving
  // from the resource root, so every dependency goes inside the file. The page is inlined too, so
  // the resource serves it itself and the page fetches nothing else.
  const result = await build({
    ...common,
    entryPoints: ['src/index.ts'],
    outfile: BUNDLE_PATH,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    sourcemap: false,
    legalComments: 'none',
    define: {
      __ROSTER_VERSION__: JSON.stringify(packageVersion()),
      __PANEL_JS__: JSON.stringify(page.js),
      __PANEL_CSS__: JSON.stringify(page.css),
    },
  });
  return result.outputFiles[0].text;
}
