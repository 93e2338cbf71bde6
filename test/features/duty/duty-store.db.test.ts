import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OxmysqlDutyStore } from '../../../src/features/share/fivem/duty-store';
import { OxmysqlCalls } from '../../../src/features/share/fivem/oxmysql-calls';
import type { SharedDutySession } from '../../../src/features/share/shared-duty';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { systemClock } from '../../../src/platform/ports';
import { KEY_HASH, ShareDatabase, type ShareServer } from '../share/share-db-rig';

// The shared duty sessions on a real MariaDB through the emulator's oxmysql: what the reader's
// read of the community listed, read back by version, and how far the rows are whole.
let shared: ShareDatabase;
let main: ShareServer;

beforeEach(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
  await main.store().migrate();
});

afterEach(() => shared.close());

const store = (keyHash = KEY_HASH) =>
  new OxmysqlDutyStore(
    new OxmysqlCalls({ exports: () => main.exports, resource: 'roster', clock: systemClock }),
    keyHash,
  );
const session = (id: string, member: string, start: number, end: number | null): SharedDutySession => ({
  id,
  member,
  start,
  end,
  stored: start,
});
const NOW = Date.now();

describe('shared duty sessions', () => {
  it('nothing shared yet: version 0, no position; then rows by version, the newer listing of a session kept', async () => {
    const duty = store();
    expect(await duty.state()).toMatchObject({ version: 0, from: null, after: null, fedAt: 0 });
    await duty.publish({ from: NOW - 1000, after: NOW, sessions: [session('s1', 'm1', NOW - 500, null)] });
    await duty.publish({
      from: NOW,
      after: NOW + 1000,
      sessions: [session('s1', 'm1', NOW - 500, NOW + 100), session('s2', 'm2', NOW + 10, null)],
    });
    const state = await duty.state();
    expect(state).toMatchObject({ version: 2, from: NOW - 1000, after: NOW + 1000 });
    expect(Math.abs(state.now - state.fedAt)).toBeLessThan(60_000);
    const page = await duty.sessionsSince({ version: 0, id: '' }, 10);
    expect(page.sessions).toEqual([
      session('s1', 'm1', NOW - 500, NOW + 100),
      session('s2', 'm2', NOW + 10, null),
    ]);
    expect(page.done).toBe(true);
    expect((await duty.sessionsSince(page.next, 10)).sessions).toEqual([]);
  });

  it('a read that begins after where the rows reach leaves a gap: the rows are whole only from its start', async () => {
    const duty = store();
    await duty.publish({ from: NOW - 1000, after: NOW, sessions: [] });
    await duty.publish({ from: NOW + 5000, after: NOW + 6000, sessions: [] });
    expect(await duty.state()).toMatchObject({ from: NOW + 5000, after: NOW + 6000 });
    // An older read written late moves nothing back.
    await duty.publish({ from: NOW + 5500, after: NOW + 5800, sessions: [] });
    expect(await duty.state()).toMatchObject({ from: NOW + 5000, after: NOW + 6000 });
  });

  it("another key's rows are never read; a row that does not parse is skipped and counted", async () => {
    await store(shareKeyHash('rk_other_s3cret')).publish({
      from: NOW,
      after: NOW + 1,
      sessions: [session('x', 'mx', NOW, null)],
    });
    const duty = store();
    await duty.publish({ from: NOW, after: NOW + 1, sessions: [session('a', 'm1', NOW, null)] });
    await shared.query(
      "INSERT INTO roster_share_duty (key_hash, session_id, record, ends_at, version) VALUES (?, 'bad', '{\"member\":1}', 0, 1)",
      [KEY_HASH],
    );
    const page = await duty.sessionsSince({ version: 0, id: '' }, 10);
    expect(page.sessions.map((s) => s.id)).toEqual(['a']);
    expect(page.unreadable).toBe(1);
  });
});
