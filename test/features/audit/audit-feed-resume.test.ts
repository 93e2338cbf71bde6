import { describe, expect, it } from 'vitest';
import { AUDIT_OVERLAP_MS } from '../../../src/features/audit/audit-feed';
import { feedRig, memberRecord } from './feed-rig';

describe('AuditFeed position and resume', () => {
  it('resumed, it reads from the saved position at once, without asking for the newest entries', async () => {
    const r = feedRig();
    const license = await r.known(3);
    const saved = r.clock.now() - 30 * 60_000;
    r.roster.set(license, memberRecord(3, 'SUSPENDED'));
    r.write({ ref: 'm3' });
    r.feed.resumeFrom({ at: saved });
    // The scheduled anchor finds the cursor set: nothing asked.
    expect(await r.feed.anchor()).toBe(true);
    await r.feed.poll();
    expect(r.reads).toEqual([
      { sort: 'createdAt', 'createdAt.after': new Date(saved - AUDIT_OVERLAP_MS - 1).toISOString() },
    ]);
    // Entries before the snapshot (the rig's history, an hour and ten minutes old) are not listed.
    expect(r.lookups).toEqual([[license]]);
    expect(r.cache.fresh(license)?.member.status).toBe('SUSPENDED');
  });

  it('its position moves only once the members an entry named were read again', async () => {
    const r = feedRig();
    await r.known(4);
    await r.start();
    const start = r.feed.position();
    expect(start).not.toBeNull();
    await r.clock.advance(1_000);
    r.write({ ref: 'm4' });
    await r.clock.advance(1_000);
    r.write({ x: 'later' });
    r.state.failLookups = true;
    await r.feed.poll();
    expect(r.feed.unreadMembers).toBe(1);
    // The entry naming m4 was listed, but m4 was not read again: a restart must read it again.
    expect(r.feed.position()).toEqual(start);
    r.state.failLookups = false;
    await r.feed.poll();
    expect(r.feed.unreadMembers).toBe(0);
    expect(r.feed.position()!.at).toBeGreaterThan(start!.at ?? 0);
  });

  it('two reads asked at once are one read', async () => {
    const r = feedRig();
    await r.start();
    const before = r.reads.length;
    await Promise.all([r.feed.poll(), r.feed.poll()]);
    expect(r.reads.length - before).toBe(1);
  });
});
