import { describe, expect, it } from 'vitest';
import { feedRig, memberRecord, recordingLogger } from './feed-rig';

const HOUR = 3_600_000;

describe('AuditFeed on the service clock', () => {
  it('two entries stamped an hour ahead are acted on, said once, and a suspension written after them reaches the member at the next read', async () => {
    const { logger, warnings } = recordingLogger();
    const r = feedRig({ logger });
    const [fast, suspended] = [await r.known(1), await r.known(2)];
    await r.start();
    const ahead = new Date(r.clock.now() + HOUR).toISOString();
    r.write({ id: 'fast-1', ref: 'm1', createdAt: ahead });
    r.write({ id: 'fast-2', ref: 'x', createdAt: ahead });
    await r.clock.advance(60_000);
    await r.feed.poll();
    // Acted on: the member the entry named was read again.
    expect(r.lookups).toEqual([[fast]]);
    const saidAt = r.clock.now();
    expect(r.feed.state().skew).toEqual({
      entries: 2,
      last: { entry: 'fast-2', aheadMs: HOUR - 60_000, at: saidAt },
    });
    expect(warnings.filter((w) => w.includes('ahead of the service'))).toEqual([
      expect.stringContaining('(fast-2) stamped 59 min ahead'),
    ]);

    for (let minute = 0; minute < 10; minute++) {
      await r.clock.advance(60_000);
      await r.feed.poll();
      // Never a future position for a restart.
      expect(r.feed.position()!.at!).toBeLessThanOrEqual(r.clock.now());
    }
    r.roster.set(suspended, memberRecord(2, 'SUSPENDED'));
    r.write({ ref: 'm2' });
    await r.clock.advance(60_000);
    await r.feed.poll();
    expect(r.lookups).toEqual([[fast], [suspended]]);
    expect(r.cache.fresh(suspended)?.member.status).toBe('SUSPENDED');
    // Listed again by every read, they are not handled again, nor said again.
    expect(r.feed.state().skew?.entries).toBe(2);
    expect(warnings.filter((w) => w.includes('ahead of the service'))).toHaveLength(1);
  });

  it('judges stamps on the service time, not this server: with the service 10 minutes ahead, its own stamps are not ahead', async () => {
    const r = feedRig({ skewMs: 10 * 60_000 });
    await r.known(3);
    await r.start();
    r.write({ ref: 'm3' });
    await r.clock.advance(60_000);
    await r.feed.poll();
    expect(r.lookups).toEqual([['license:3']]);
    expect(r.feed.state().skew).toBeNull();
    expect(r.feed.position()!.at!).toBeLessThanOrEqual(r.clock.now() + 10 * 60_000);
  });

  it('a position saved ahead of the service time is not resumed from: a gap, read again in full', async () => {
    const r = feedRig();
    await r.known(4);
    r.feed.resumeFrom({ at: r.clock.now() + HOUR });
    expect(r.feed.position()!.at!).toBeLessThanOrEqual(r.clock.now());
    r.write({ ref: 'm4' });
    await r.feed.poll();
    expect(r.gaps).toEqual([
      expect.stringMatching(/position saved before the restart, .* is ahead of the service's time/),
    ]);
    expect(r.lookups).toEqual([['license:4']]);
    expect(r.feed.state().gaps).toBe(1);
  });

  it('tells entriesRead the fresh entries of each read, before their members are read again', async () => {
    const told: { ids: unknown[]; lookupsBefore: number }[] = [];
    const r = feedRig({
      entriesRead: (fresh) =>
        told.push({ ids: fresh.map((e) => (e as { id: unknown }).id), lookupsBefore: r.lookups.length }),
    });
    await r.known(5);
    await r.start();
    told.length = 0;
    r.write({ id: 'a', ref: 'm5' });
    r.write({ id: 'b', ref: 'nobody' });
    await r.clock.advance(60_000);
    await r.feed.poll();
    await r.clock.advance(60_000);
    r.write({ id: 'c', ref: 'nobody' });
    await r.feed.poll();
    // Each entry once, though the second read listed all three; told before m5 was read again.
    expect(told).toEqual([
      { ids: ['a', 'b'], lookupsBefore: 0 },
      { ids: ['c'], lookupsBefore: 1 },
    ]);
    expect(r.lookups).toEqual([['license:5']]);
  });
});
