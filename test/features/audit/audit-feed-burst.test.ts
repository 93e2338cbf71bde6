import { describe, expect, it } from 'vitest';
import { MAX_CATCH_UP_READS } from '../../../src/features/audit/audit-cursor';
import { feedRig, recordingLogger } from './feed-rig';

describe('AuditFeed in a burst', () => {
  it('a burst of 2,500 entries is read in two passes, each member named is re-read once, and it is not listed again for ever', async () => {
    const r = feedRig();
    const [early, late] = [await r.known(3), await r.known(4)];
    await r.start();
    await r.clock.advance(5_000);
    r.burst(2_500, (i) => (i === 10 ? { ref: 'm3' } : i === 2_400 ? { ref: 'as4' } : { ref: `other-${i}` }));
    const first = await r.feed.poll();
    expect(first).toMatchObject({ behind: true });
    expect(r.feed.healthy).toBe(true);
    await r.clock.advance(60_000);
    const second = await r.feed.poll();
    expect(second).toMatchObject({ behind: false });
    expect(first.entries + second.entries).toBe(2_500);
    expect(r.lookups).toEqual([[early], [late]]);
    // The burst is read again only while late entries may still appear among it.
    const before = r.listedCounts.length;
    for (let minute = 0; minute < 60; minute++) {
      await r.clock.advance(60_000);
      await r.feed.poll();
    }
    const later = r.listedCounts.slice(before);
    expect(later.slice(-50).every((n) => n <= 2)).toBe(true);
    expect(r.lookups).toHaveLength(2);
    expect(r.gaps).toEqual([]);
    expect(r.feed.healthy).toBe(true);
  });

  it('is not healthy while it pages through a backlog for longer than a couple of intervals', async () => {
    const r = feedRig({ passSize: 10 });
    await r.start();
    r.burst(60);
    const health: boolean[] = [];
    for (let n = 0; n < 7; n++) {
      await r.clock.advance(60_000);
      await r.feed.poll();
      health.push(r.feed.healthy);
    }
    // 61 entries (with the newest from before the start; each read lists the last one of the read
    // before again) in reads of ten: six stop at their size, the seventh reaches the end. Unhealthy
    // from the third interval without reaching it, healthy after.
    expect(r.listedCounts.slice(1)).toEqual([10, 10, 10, 10, 10, 10, 7]);
    expect(health).toEqual([true, true, false, false, false, false, true]);
    expect(r.feed.state()).toMatchObject({ behind: false, gaps: 0 });
  });

  it('a backlog longer than it pages through is a gap: said once, everything read again, and the feed goes on', async () => {
    const { logger, warnings } = recordingLogger();
    const r = feedRig({ passSize: 10, logger });
    const license = await r.known(5);
    await r.start();
    r.burst(10 * (MAX_CATCH_UP_READS + 3));
    for (let n = 0; n <= MAX_CATCH_UP_READS; n++) {
      await r.clock.advance(60_000);
      await r.feed.poll();
    }
    expect(r.gaps).toEqual([`more than ${10 * MAX_CATCH_UP_READS} entries behind`]);
    expect(warnings.filter((w) => w.includes('could not be read in full'))).toHaveLength(1);
    expect(r.feed.state()).toMatchObject({ gaps: 1 });
    // Anchored anew on the newest entries: a change after them is handled.
    await r.clock.advance(60_000);
    await r.feed.poll();
    r.write({ ref: 'm5' });
    await r.clock.advance(60_000);
    await r.feed.poll();
    expect(r.lookups).toEqual([[license]]);
    expect(r.gaps).toHaveLength(1);
  });
});
