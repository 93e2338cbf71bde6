import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, floorFolder, folderGraph, importGraph, repo, sourceFiles } from './import-graph';

/** The floors of src/, top first: a file imports from its own floor or the ones below it. */
const FLOORS = ['app', 'features', 'kernel', 'roster', 'http', 'platform'] as const;

const floorOf = (file: string) => FLOORS.indexOf(file.split('/')[1] as (typeof FLOORS)[number]);

/**
 * Biome's verdict on one file standing at `path`, linted with the repository's biome.json in a
 * folder of its own (so the tree's files do not count and nothing is written into src/).
 */
function lintAt(path: string, text: string): { ok: boolean; said: string } {
  const folder = mkdtempSync(join(tmpdir(), 'roster-floors-'));
  try {
    copyFileSync(join(repo, 'biome.json'), join(folder, 'biome.json'));
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
    const biome = join(repo, 'node_modules', '.bin', 'biome');
    const run = spawnSync(biome, ['lint', path], { cwd: folder, encoding: 'utf8' });
    return { ok: run.status === 0, said: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the floor plan of src/', () => {
  it.each(FLOORS.slice(1).map((floor, i) => [floor, FLOORS[i]!] as const))(
    '`npm run lint` refuses a file in src/%s importing from src/%s, the floor above',
    (floor, above) => {
      const verdict = lintAt(`src/${floor}/probe.ts`, `export { thing } from '../${above}/thing';\n`);
      expect(verdict.ok).toBe(false);
      expect(verdict.said).toContain('noRestrictedImports');
      expect(verdict.said).toContain('docs/architecture.md');
    },
  );

  it.each(FLOORS.slice(0, -1).map((floor, i) => [floor, FLOORS[i + 1]!] as const))(
    'and lets a file in src/%s import from src/%s, the floor below',
    (floor, below) => {
      const verdict = lintAt(`src/${floor}/probe.ts`, `export { thing } from '../${below}/thing';\n`);
      expect(verdict.said).not.toContain('noRestrictedImports');
    },
  );

  it('a file deeper in a feature is held to the features floor too', () => {
    const verdict = lintAt(
      'src/features/mirror/fivem/probe.ts',
      "export { start } from '../../../app/start';\n",
    );
    expect(verdict.said).toContain('noRestrictedImports');
  });

  it('every import in src/ points to its own floor or one below', () => {
    const upward: string[] = [];
    for (const [file, targets] of importGraph())
      for (const target of targets) if (floorOf(target) < floorOf(file)) upward.push(`${file} → ${target}`);
    expect(upward).toEqual([]);
  });

  it('no import cycle between files of src/', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('no import cycle between folders of src/ (each feature a folder)', () => {
    expect(cycles(folderGraph(importGraph()))).toEqual([]);
  });

  it('the cycle finder finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(floorFolder('src/features/mirror/fivem/x.ts')).toBe('src/features/mirror');
  });

  it('no file in src/ is over 300 lines', () => {
    const long = sourceFiles()
      .map((file) => ({ file, lines: readFileSync(join(repo, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('docs/architecture.md names every folder of src/', () => {
    const doc = readFileSync(join(repo, 'docs/architecture.md'), 'utf8');
    const folders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(repo, dir), { withFileTypes: true }))
        if (entry.isDirectory()) {
          folders.push(`${dir}/${entry.name}`);
          walk(`${dir}/${entry.name}`);
        }
    };
    walk('src');
    const unnamed = folders.filter((folder) => !doc.includes(`${folder.slice('src/'.length)}/`));
    expect(unnamed).toEqual([]);
  });
});
