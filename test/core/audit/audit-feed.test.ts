import { describe, expect, it } from 'vitest';
import { AuditFeed, CATALOG_RELOAD_GAP_MS } from '../../../src/core/audit/audit-feed';
import { PlayerRegistry } from '../../../src/core/players/player-registry';
import { silentLogger } from '../../../src/core/ports';
import { CatalogIndex } from '../../../src/core/roster/catalog-index';
import { viewOf } from '../../../src/core/roster/member-view';
import type { RosterService } from '../../../src/core/roster/roster-service';
import { FakeClock } from '../limiter/fake-clock';

const catalog = new CatalogIndex({
  departments: [{ id: 'd1', name: 'Police', shortName: 'PD' }],
  ranks: [{ id: 'r1', departmentId: 'd1', name: 'Chief', position: 1 }],
});

function rig() {
  const clock = new FakeClock();
  const players = new PlayerRegistry();
  const member = { id: 'm1', name: 'A', status: 'ACTIVE', license: 'license:a', departments: [] };
  players.add('1', {
    license: 'license:a',
    name: 'A',
    view: viewOf(member, new Map([['d1', 'as1']])),
    since: 0,
  });
  const calls = { reloads: 0, reread: [] as string[][] };
  const service = {
    catalog,
    loadCatalog: async () => {
      calls.reloads++;
      return true;
    },
    reshapeOnline: () => 0,
    refreshPlayers: async (srcs: Iterable<string>) => {
      calls.reread.push([...srcs]);
      return 0;
    },
  } as unknown as RosterService;
  let pages: unknown[][] = [];
  const feed = new AuditFeed({
    list: async () => pages.shift() ?? [],
    service,
    players,
    clock,
    logger: silentLogger,
    startedAt: clock.now(),
    intervalMs: 60_000,
  });
  const stamp = () => new Date(clock.now()).toISOString();
  return {
    feed,
    calls,
    clock,
    stamp,
    queue: (entries: unknown[]) => pages.push(entries),
    reset: () => (pages = []),
  };
}

describe('AuditFeed', () => {
  it('re-reads a player named by an assignment id at any depth, and nobody for an unrelated entry', async () => {
    const r = rig();
    r.queue([
      { id: 'e1', createdAt: r.stamp(), deep: { list: [{ x: 'as1' }] } },
      { id: 'e2', createdAt: r.stamp(), x: 'nothing' },
    ]);
    expect(await r.feed.poll()).toEqual({ entries: 2, players: 1, catalog: false });
    expect(r.calls.reread).toEqual([['1']]);
    r.queue([{ id: 'e3', createdAt: r.stamp(), y: 'other' }]);
    expect(await r.feed.poll()).toEqual({ entries: 1, players: 0, catalog: false });
    expect(r.calls.reread).toHaveLength(1);
    expect(r.calls.reloads).toBe(0);
  });

  it('reloads the catalog for an entry naming a rank, at most once per gap, and never forgets one owed', async () => {
    const r = rig();
    r.queue([{ id: 'e1', createdAt: r.stamp(), ref: 'r1' }]);
    await r.feed.poll();
    expect(r.calls.reloads).toBe(1);
    await r.clock.advance(60_000);
    r.queue([{ id: 'e2', createdAt: r.stamp(), ref: 'd1' }]);
    await r.feed.poll();
    expect(r.calls.reloads).toBe(1);
    await r.clock.advance(CATALOG_RELOAD_GAP_MS);
    await r.feed.poll();
    expect(r.calls.reloads).toBe(2);
  });

  it('an entry that names an online member does not reload the catalog for the rank it also names', async () => {
    const r = rig();
    r.queue([{ id: 'e1', createdAt: r.stamp(), target: 'm1', changes: { rankId: { to: 'r1' } } }]);
    await r.feed.poll();
    expect(r.calls.reloads).toBe(0);
    expect(r.calls.reread).toEqual([['1']]);
  });

  it('is healthy only while reads succeed on time', async () => {
    const r = rig();
    expect(r.feed.healthy).toBe(false);
    await r.feed.poll();
    expect(r.feed.healthy).toBe(true);
    await r.clock.advance(200_000);
    expect(r.feed.healthy).toBe(false);
  });
});
