import { describe, expect, it } from 'vitest';
import { CATALOG_RELOAD_GAP_MS } from '../../../src/features/audit/audit-feed';
import { feedRig, memberRecord } from './feed-rig';

describe('AuditFeed', () => {
  it('re-reads an online player named by an assignment id at any depth, and nobody for an unrelated entry', async () => {
    const r = feedRig();
    await r.online(1);
    await r.start();
    r.write({ deep: { list: [{ x: 'as1' }] } });
    r.write({ x: 'nothing' });
    expect(await r.feed.poll()).toEqual({ entries: 2, members: 1, catalog: false, behind: false });
    expect(r.lookups).toEqual([['license:1']]);
    r.write({ y: 'other' });
    expect(await r.feed.poll()).toEqual({ entries: 1, members: 0, catalog: false, behind: false });
    expect(r.lookups).toHaveLength(1);
    expect(r.state.catalogLoads).toBe(1);
  });

  it('re-reads a member who is not online but held in the cache: their next join decides on the new record', async () => {
    const r = feedRig();
    const license = await r.known(7);
    await r.known(8);
    r.roster.set(license, memberRecord(7, 'SUSPENDED'));
    await r.start();
    r.write({ resourceType: 'member', resourceId: 'm7', changes: { status: { to: 'SUSPENDED' } } });
    expect(await r.feed.poll()).toMatchObject({ members: 1 });
    expect(r.lookups).toEqual([[license]]);
    const fresh = r.cache.fresh(license);
    expect(fresh?.member.status).toBe('SUSPENDED');
  });

  it('re-reads every member named in one pass in one batch, online or not', async () => {
    const r = feedRig();
    await r.online(1);
    await r.known(2);
    await r.known(3);
    await r.start();
    r.write({ target: 'm2' });
    r.write({ meta: { assignmentId: 'as3' } });
    r.write({ subject: 'as1' });
    await r.feed.poll();
    expect(r.lookups).toHaveLength(1);
    expect([...r.lookups[0]!].sort()).toEqual(['license:1', 'license:2', 'license:3']);
  });

  it('a re-read that fails is tried again with the next read', async () => {
    const r = feedRig();
    const license = await r.known(4);
    r.state.failLookups = true;
    await r.start();
    r.write({ id: 'x', ref: 'm4' });
    await r.feed.poll();
    r.state.failLookups = false;
    r.roster.set(license, memberRecord(4, 'LOA'));
    await r.feed.poll();
    expect(r.lookups).toEqual([[license], [license]]);
    expect(r.cache.fresh(license)?.member.status).toBe('LOA');
  });

  it('reloads the catalog for an entry naming a rank, at most once per gap, and never forgets one owed', async () => {
    const r = feedRig();
    await r.rosterCatalog.load();
    const loads = r.state.catalogLoads;
    await r.start();
    r.write({ ref: 'r1' });
    await r.feed.poll();
    expect(r.state.catalogLoads).toBe(loads + 1);
    await r.clock.advance(60_000);
    r.write({ ref: 'd1' });
    await r.feed.poll();
    expect(r.state.catalogLoads).toBe(loads + 1);
    await r.clock.advance(CATALOG_RELOAD_GAP_MS);
    await r.feed.poll();
    expect(r.state.catalogLoads).toBe(loads + 2);
  });

  it('an entry that names a member does not reload the catalog for the rank it also names', async () => {
    const r = feedRig();
    await r.known(1);
    const loads = r.state.catalogLoads;
    await r.start();
    r.write({ target: 'm1', changes: { rankId: { to: 'r1' } } });
    await r.feed.poll();
    expect(r.state.catalogLoads).toBe(loads);
    expect(r.lookups).toEqual([['license:1']]);
  });

  for (const skewMs of [10 * 60_000, -10 * 60_000]) {
    it(`with the service's clock 10 minutes ${skewMs > 0 ? 'ahead' : 'behind'}, nothing is missed and nothing handled twice`, async () => {
      const r = feedRig({ skewMs });
      const licenses = [await r.known(5), await r.known(6), await r.known(7)];
      await r.start();
      for (let minute = 0; minute < 30; minute++) {
        if (minute === 0) r.write({ ref: 'm5' });
        if (minute === 3) r.write({ ref: 'as6' });
        if (minute === 12) r.write({ ref: 'm7' });
        await r.clock.advance(60_000);
        await r.feed.poll();
      }
      expect(r.lookups).toEqual(licenses.map((license) => [license]));
    });
  }

  it('a change made after the anchor, long before the first read, is handled; history before it is not', async () => {
    const r = feedRig();
    const license = await r.known(1);
    await r.known(2);
    r.write({ ref: 'as2' });
    await r.clock.advance(600_000);
    r.write({ ref: 'm2' });
    await r.clock.advance(600_000);
    // Two reads of the newest entries at once: one request.
    await Promise.all([r.feed.anchor(), r.feed.anchor()]);
    expect(r.reads).toEqual([{ newest: 'true' }]);
    await r.clock.advance(3_600_000);
    r.write({ ref: 'm1' });
    await r.feed.poll();
    // The two newest entries at the anchor are read as possibly new (once); older ones are not.
    expect(r.lookups.map((batch) => [...batch].sort())).toEqual([[license, 'license:2']]);
  });

  it('is healthy only while reads succeed on time', async () => {
    const r = feedRig();
    expect(r.feed.healthy).toBe(false);
    await r.feed.poll();
    expect(r.feed.healthy).toBe(true);
    await r.clock.advance(200_000);
    expect(r.feed.healthy).toBe(false);
  });
});
