/**
 * The periodic snapshot save of a 50,000-member mirror never holds a server frame: the file is
 * made a piece per frame and written in the background, then put in place whole. Judged on the
 * emulator's frames, not on the host's clock: after every frame, how much of the new snapshot
 * appeared on disk. Saved at once, all of it appears within one frame.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  try {
    await h?.close();
  } finally {
    h = undefined;
    vi.useRealTimers();
  }
});

const MEMBERS = 50_000;
/** The resource saves every 5 minutes. */
const SAVE_EVERY_MS = 5 * 60_000;
const SNAPSHOT = 'roster-snapshot.json';

/** Adds members to the mirror part of the snapshot the resource saved, up to `total`. */
function growSnapshot(folder: string, total: number): void {
  const file = join(folder, SNAPSHOT);
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const members: unknown[] = snapshot.mirror.members;
  for (let i = members.length; i < total; i++) {
    const license = `license:${(0xabc0000 + i).toString(16).padStart(40, '0')}`;
    const assignment = [`asg_big_${i}`, 'dept_big', null, true, `B-${i}`, -1];
    members.push([`mem_big_${i}`, `Member Number ${i}`, 'ACTIVE', license, [assignment], null, Date.now()]);
  }
  writeFileSync(file, JSON.stringify(snapshot));
}

/** Bytes of the snapshot being written: its temporary files, or the file itself once replaced. */
function snapshotBytes(folder: string, before: number): { bytes: number; replaced: boolean } {
  const placed = statSync(join(folder, SNAPSHOT));
  if (placed.ino !== before) return { bytes: placed.size, replaced: true };
  let bytes = 0;
  for (const name of readdirSync(folder))
    if (name.startsWith(`${SNAPSHOT}.`)) bytes += statSync(join(folder, name)).size;
  return { bytes, replaced: false };
}

describe('saving the snapshot of a 50,000-member mirror', () => {
  it('spreads over many frames, none writing more than a tenth of it, the file in place whole meanwhile; stopped midway, the save at stop stays', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const harness = await startHarness({ config: { refresh: { auditSeconds: 1 } } });
    h = harness;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 20_000);
    // The feed has read the log to its end: the snapshot holds a position to catch up from.
    await eventually(() => harness.mock.counters.byEndpoint()['GET /api/v1/audit-logs']! >= 2, 10_000);
    harness.server.stopResource('roster');
    growSnapshot(harness.folder, MEMBERS);
    // Nothing reads the service while the clock runs ahead to the save: no request to wait on.
    writeFileSync(
      join(harness.folder, 'config.json'),
      JSON.stringify({ refresh: { auditSeconds: 3600, intervalSeconds: 3600 } }),
    );
    const from = harness.server.log.lines.length;
    const startedAt = Date.now();
    harness.server.startResource('roster', harness.folder);
    const caughtUp = await eventually(
      () => harness.server.log.lines.slice(from).find((l) => l.includes('caught up on the audit log')),
      20_000,
    );
    expect(caughtUp).toMatch(new RegExp(`its ${MEMBERS} members`));
    const previous = readFileSync(join(harness.folder, SNAPSHOT), 'utf8');
    const previousInode = statSync(join(harness.folder, SNAPSHOT)).ino;

    await vi.advanceTimersByTimeAsync(startedAt + SAVE_EVERY_MS - 1_000 - Date.now());
    const perFrame: number[] = [];
    let last = 0;
    let sawPartial = false;
    for (let frames = 0; ; frames++) {
      if (frames === 2_000) throw new Error('the snapshot was not saved within 100 s of frames');
      await harness.server.nextTick();
      const { bytes, replaced } = snapshotBytes(harness.folder, previousInode);
      perFrame.push(bytes - last);
      last = bytes;
      if (replaced) break;
      if (bytes > 0 && !sawPartial) {
        sawPartial = true;
        // Half written: the snapshot in place is still the previous one, whole.
        expect(readFileSync(join(harness.folder, SNAPSHOT), 'utf8')).toBe(previous);
      }
    }
    const saved = JSON.parse(readFileSync(join(harness.folder, SNAPSHOT), 'utf8'));
    expect(saved.mirror.members).toHaveLength(MEMBERS);
    expect(saved.savedAt).toBeGreaterThan(JSON.parse(previous).savedAt);
    const size = statSync(join(harness.folder, SNAPSHOT)).size;
    expect(size).toBeGreaterThan(5_000_000);
    expect(Math.max(...perFrame)).toBeLessThanOrEqual(size / 10);
    expect(perFrame.filter((bytes) => bytes > 0).length).toBeGreaterThanOrEqual(10);
    expect(sawPartial).toBe(true);
    expect(readdirSync(harness.folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(harness.logText()).not.toMatch(/could not save the member snapshot/);

    // The next save, stopped halfway: the save at stop is written at once and stays in place.
    await vi.advanceTimersByTimeAsync(SAVE_EVERY_MS - 1_000);
    const placed = statSync(join(harness.folder, SNAPSHOT)).ino;
    for (let frames = 0; snapshotBytes(harness.folder, placed).bytes === 0; frames++) {
      if (frames === 2_000) throw new Error('the next save did not begin');
      await harness.server.nextTick();
    }
    harness.server.stopResource('roster');
    const atStop = readFileSync(join(harness.folder, SNAPSHOT), 'utf8');
    expect(JSON.parse(atStop).mirror.members).toHaveLength(MEMBERS);
    for (let frames = 0; frames < 20; frames++) await harness.server.nextTick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(join(harness.folder, SNAPSHOT), 'utf8')).toBe(atStop);
    expect(readdirSync(harness.folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});
