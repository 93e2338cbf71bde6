import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const zipPath = resolve(repo, 'roster.zip');

/** Entry names from a zip's central directory. */
function zipEntries(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

describe('npm run package', () => {
  afterAll(() => rmSync(zipPath, { force: true }));

  it('builds a zip an owner unpacks into resources/ as it is', () => {
    execFileSync(process.execPath, ['.build/dev/package.mjs'], { cwd: repo, stdio: 'pipe' });
    const docs = readdirSync(join(repo, 'docs'))
      .filter((name) => /\.(md|png)$/.test(name))
      .map((name) => `roster/docs/${name}`);
    expect(docs).toContain('roster/docs/configuration.md');
    expect(zipEntries(readFileSync(zipPath)).sort()).toEqual(
      [
        'roster/LICENSE',
        'roster/README.md',
        'roster/config.example.json',
        'roster/dist/server.js',
        'roster/fxmanifest.lua',
        'roster/types/index.d.ts',
        'roster/types/roster.lua',
        ...docs,
      ].sort(),
    );
  });
});
