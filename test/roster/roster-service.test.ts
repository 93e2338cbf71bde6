import { describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '../../src/platform/ports';
import { MemberCache } from '../../src/roster/member-cache';
import type {
  ApiAssignment,
  Catalog,
  KeyIdentity,
  Member,
  MemberFound,
  MemberLookup,
} from '../../src/roster/model';
import { PlayerRegistry } from '../../src/roster/player-registry';
import { RosterService } from '../../src/roster/roster-service';
import type { RosterSource } from '../../src/roster/roster-source';
import { catalog, license, lookupOf } from './fixtures';

/** A roster source whose answers a test controls, counting calls. */
function fakeSource(answer: () => MemberLookup | null) {
  const calls = { member: 0, assignments: 0, lookup: 0 };
  let release: (() => void) | undefined;
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
    });
  const source: RosterSource & {
    calls: typeof calls;
    hold: boolean;
    failAssignments: boolean;
    release(): void;
  } = {
    calls,
    hold: false,
    failAssignments: false,
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
      if (source.failAssignments) throw new Error('assignments request failed');
      return answer()?.assignments ?? [];
    },
  };
  return source;
}

const onlyActive = (member: { status: string }) => member.status === 'ACTIVE';

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
    joinNeedsDepartments: onlyActive,
    events: {
      playerLoaded: (src, member) => loaded.push([src, member]),
      playerUpdated: (src, member, previous) => updated.push([src, member, previous]),
    },
  });
  return { service, players, loaded, updated, cache };
}

describe('RosterService', () => {
  it('a join is answered with the full record: the members request, then its assignments', async () => {
    const source = fakeSource(() => lookupOf());
    const { service } = serviceWith(source);
    const answer = await service.resolve(license, 'join', { decideOnly: true });
    expect(answer).toMatchObject({ kind: 'answer' });
    expect(answer.kind === 'answer' && answer.partial).toBeFalsy();
    expect(answer.kind === 'answer' && answer.view?.member.departments.map((d) => d.shortName)).toEqual([
      'LSPD',
      'SAFR',
    ]);
    expect(source.calls).toEqual({ member: 1, assignments: 1, lookup: 0 });
    // Cached in full: the next join costs nothing.
    await service.resolve(license, 'join', { decideOnly: true });
    expect(source.calls).toEqual({ member: 1, assignments: 1, lookup: 0 });
  });

  it('a status the gate refuses is decided on the members request alone, and is no record for anyone else', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    const { service } = serviceWith(source);
    const refused = await service.resolve(license, 'join', { decideOnly: true });
    expect(refused).toMatchObject({ kind: 'answer', partial: true });
    expect(refused.kind === 'answer' && refused.view?.member.status).toBe('SUSPENDED');
    expect(source.calls).toEqual({ member: 1, assignments: 0, lookup: 0 });
    // A reconnect is refused from the cache.
    await service.resolve(license, 'join', { decideOnly: true });
    expect(source.calls.member).toBe(1);
    // Anyone wanting the record (a bypassed player loading) gets it in full.
    const full = await service.resolve(license, 'join');
    expect(full.kind === 'answer' && full.partial).toBeFalsy();
    expect(full.kind === 'answer' && full.view?.member.departments).toHaveLength(2);
    expect(source.calls).toEqual({ member: 2, assignments: 1, lookup: 0 });
  });

  it('when the departments cannot be had, a join is an outage with the last known record, never "no departments"', async () => {
    const source = fakeSource(() => lookupOf());
    const { service, cache } = serviceWith(source);
    source.failAssignments = true;
    const first = await service.resolve(license, 'join', { decideOnly: true });
    expect(first).toMatchObject({ kind: 'outage', lastKnown: undefined });
    source.failAssignments = false;
    await service.resolve(license, 'join');
    cache.remember(license, cache.lastKnown(license)!, 0);
    source.failAssignments = true;
    const again = await service.resolve(license, 'join', { decideOnly: true });
    expect(again.kind).toBe('outage');
    expect(again.kind === 'outage' && again.lastKnown?.member.departments).toHaveLength(2);
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
  it('a new status the gate refuses keeps the departments last known', async () => {
    let status = 'ACTIVE';
    const source = fakeSource(() => lookupOf(status));
    const { service, cache } = serviceWith(source);
    await service.loadCatalog();
    await service.resolve(license, 'join');
    expect(cache.lastKnown(license)?.member.departments).toHaveLength(2);
    cache.remember(license, cache.lastKnown(license)!, 0);
    status = 'SUSPENDED';
    await service.resolve(license, 'join', { decideOnly: true });
    const known = cache.lastKnown(license)!;
    expect(known.member.status).toBe('SUSPENDED');
    expect(known.member.departments.map((d) => d.shortName)).toEqual(['LSPD', 'SAFR']);
  });
});
