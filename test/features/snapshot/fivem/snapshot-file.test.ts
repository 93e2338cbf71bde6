import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotFile } from '../../../../src/features/snapshot/fivem/snapshot-file';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'snapshot-file-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const inPlace = () => readFileSync(join(folder, 'roster-snapshot.json'), 'utf8');
const leftOver = () => readdirSync(folder).filter((name) => name !== 'roster-snapshot.json');

describe('roster-snapshot.json written in the background', () => {
  it('is put in place whole: until the write finishes, the previous snapshot stays as it was', async () => {
    const store = snapshotFile(folder);
    store.write('{"old":true}');
    const writer = store.begin();
    await writer.append('{"new":');
    await writer.append('true}');
    expect(inPlace()).toBe('{"old":true}');
    expect(await writer.finish()).toBe(true);
    expect(inPlace()).toBe('{"new":true}');
    expect(leftOver()).toEqual([]);
  });

  it('a write at once while it runs wins, and the background write leaves nothing behind', async () => {
    const store = snapshotFile(folder);
    const writer = store.begin();
    await writer.append('{"older":true}');
    store.write('{"at stop":true}');
    expect(writer.current).toBe(false);
    expect(await writer.finish()).toBe(false);
    expect(inPlace()).toBe('{"at stop":true}');
    expect(leftOver()).toEqual([]);
  });

  it('abandoned, it leaves the snapshot in place and no partial file', async () => {
    const store = snapshotFile(folder);
    store.write('{"kept":true}');
    const writer = store.begin();
    await writer.append('{"half":');
    await writer.abandon();
    expect(inPlace()).toBe('{"kept":true}');
    expect(leftOver()).toEqual([]);
    expect(existsSync(join(folder, 'roster-snapshot.json'))).toBe(true);
  });

  it('writes text of any size whole, multi-byte characters included', async () => {
    const store = snapshotFile(folder);
    const writer = store.begin();
    const piece = `"${'Zoë ✓ '.repeat(200_000)}"`;
    await writer.append(`[${piece},`);
    await writer.append(`${piece}]`);
    expect(await writer.finish()).toBe(true);
    expect(JSON.parse(inPlace())).toEqual([JSON.parse(piece), JSON.parse(piece)]);
  });
});
