import { describe, expect, it } from 'vitest';
import { MemberCache } from '../../../src/core/cache/member-cache';
import type { MemberFound } from '../../../src/core/lookup/fetch-members';
import type { ApiAssignment, Catalog, KeyIdentity, Member, MemberLookup } from '../../../src/core/model';
import { PlayerRegistry } from '../../../src/core/players/player-registry';
import { silentLogger, systemClock } from '../../../src/core/ports';
import { RosterService } from '../../../src/core/roster/roster-service';
import type { RosterSource } from '../../../src/core/roster/roster-source';
import { catalog, license, lookupOf } from './fixtures';

/** A roster source whose answers a test controls, counting calls. */
function fakeSource(answer: () => MemberLookup | null) {
  const calls = { member: 0, assignments: 0, lookup: 0 };
  let release: (() => void) | undefined;
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
    });
  const source: RosterSource & { calls: typeof calls; hold: boolean; release(): void } = {
    calls,
    hold: false,
    release: () => release?.(),
    whoami: async (): Promise<KeyIdentity> => ({ community: { id: 'c', name: 'C' }, scopes: [] }),
    catalog: async (): Promise<Catalog> => catalog,
    estimateWaitMs: () => 0,
    lookup: async () => {
      calls.lookup++;
      return answer();
    },
    lookupMany: async (licenses) => new Map(licenses.map((l) => [l, answer()])),
    member: async (): Promise<MemberFound | null> => {
      calls.member++;
      const found = answer();
      return found ? { member: found.member, assignments: null } : null;
    },
    assignmentsOf: async (): Promise<ApiAssignment[]> => {
      calls.assignments++;
      if (source.hold) await gate();
      return answer()?.assignments ?? [];
    },
  };
  return source;
}

function serviceWith(source: RosterSource) {
  const players = new PlayerRegistry();
  const loaded: [string, Member | null][] = [];
  const updated: [string, Member | null, Member | null][] = [];
  const cache = new MemberCache({
    maxEntries: 100,
    ttlMs: 600_000,
    negativeTtlMs: 60_000,
    now: () => Date.now(),
  });
  const service = new RosterService({
    source,
    cache,
    players,
    clock: systemClock,
    logger: silentLogger,
    events: {
      playerLoaded: (src, member) => loaded.push([src, member]),
      playerUpdated: (src, member, previous) => updated.push([src, member, previous]),
    },
  });
  return { service, players, loaded, updated, cache };
}

describe('RosterService', () => {
  it('a status-only answer costs the members request; the departments follow once and are shared', async () => {
    const source = fakeSource(() => lookupOf());
    source.hold = true;
    const { service } = serviceWith(source);
    const first = await service.resolve(license, 'join', { statusOnly: true });
    expect(first).toMatchObject({ kind: 'answer', partial: true });
    expect(first.kind === 'answer' && first.view?.member.status).toBe('ACTIVE');
    const full = service.resolve(license, 'join');
    source.release();
    const resolved = await full;
    expect(resolved.kind === 'answer' && resolved.view?.member.departments.map((d) => d.shortName)).toEqual([
      'LSPD',
      'SAFR',
    ]);
    expect(source.calls).toEqual({ member: 1, assignments: 1, lookup: 0 });
  });

  it('keeps the status as the last known record until the departments arrive', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    source.hold = true;
    const { service } = serviceWith(source);
    await service.resolve(license, 'join', { statusOnly: true });
    expect(service.lastKnown(license)?.member.status).toBe('SUSPENDED');
    source.release();
  });

  it('announces a change after a player was loaded as not on the roster', async () => {
    let answer: MemberLookup | null = null;
    const source = fakeSource(() => answer);
    const { service, players, loaded, updated } = serviceWith(source);
    const entry = { license, name: 'A', view: undefined, since: 0 };
    players.add('1', entry);
    await service.loadPlayer('1', entry);
    expect(loaded).toEqual([['1', null]]);
    answer = lookupOf();
    expect(await service.refreshOnline()).toBe(1);
    expect(updated).toHaveLength(1);
    expect(updated[0]![1]?.id).toBe('m-1');
    expect(updated[0]![2]).toBeNull();
  });

  it('does not announce updates for a player not yet loaded; loadPlayer announces the latest', async () => {
    const source = fakeSource(() => lookupOf());
    const { service, players, loaded, updated } = serviceWith(source);
    const entry = { license, name: 'A', view: undefined, since: 0 };
    players.add('1', entry);
    await service.refreshOnline();
    expect(updated).toEqual([]);
    await service.loadPlayer('1', entry);
    expect(loaded[0]![1]?.status).toBe('ACTIVE');
  });
});

describe('RosterService, last known records', () => {
  it('a new status keeps the departments last known until the new ones arrive', async () => {
    let status = 'ACTIVE';
    const source = fakeSource(() => lookupOf(status));
    const { service, cache } = serviceWith(source);
    await service.loadCatalog();
    await service.resolve(license, 'join');
    expect(cache.lastKnown(license)?.member.departments).toHaveLength(2);
    // Stale now; the next answer is status-only while the departments are held up.
    cache.remember(license, cache.lastKnown(license)!, 0);
    status = 'SUSPENDED';
    source.hold = true;
    await service.resolve(license, 'join', { statusOnly: true });
    const known = cache.lastKnown(license)!;
    expect(known.member.status).toBe('SUSPENDED');
    expect(known.member.departments.map((d) => d.shortName)).toEqual(['LSPD', 'SAFR']);
    source.release();
  });
});
