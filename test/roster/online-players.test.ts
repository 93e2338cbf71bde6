import { describe, expect, it } from 'vitest';
import type { MemberLookup } from '../../src/roster/model';
import { settle } from '../http/limiter/fake-clock';
import { fakeSource, rosterCore } from './core-rig';
import { license, lookupOf } from './fixtures';

const entryOf = (of = license) => ({ license: of, name: 'A', view: undefined, since: 0 });

describe('OnlinePlayers', () => {
  it('announces a change after a player was loaded as not on the roster', async () => {
    let answer: MemberLookup | null = null;
    const source = fakeSource(() => answer);
    const { online, players, loaded, updated } = rosterCore(source);
    const entry = entryOf();
    players.add('1', entry);
    await online.loadPlayer('1', entry);
    expect(loaded).toEqual([['1', null]]);
    answer = lookupOf();
    expect(await online.refreshOnline()).toBe(1);
    expect(updated).toHaveLength(1);
    expect(updated[0]![1]?.id).toBe('m-1');
    expect(updated[0]![2]).toBeNull();
  });

  it('does not announce updates for a player not yet loaded; loadPlayer announces the latest', async () => {
    const source = fakeSource(() => lookupOf());
    const { online, players, loaded, updated } = rosterCore(source);
    const entry = entryOf();
    players.add('1', entry);
    await online.refreshOnline();
    expect(updated).toEqual([]);
    await online.loadPlayer('1', entry);
    expect(loaded[0]![1]?.status).toBe('ACTIVE');
  });

  it('a refresh the service cannot answer changes nothing and is the last error', async () => {
    const source = fakeSource(() => lookupOf());
    const { online, players, errors, updated } = rosterCore(source);
    const entry = entryOf();
    players.add('1', entry);
    await online.loadPlayer('1', entry);
    source.failLookups = true;
    expect(await online.refreshPlayers(['1'])).toBeNull();
    expect(await online.refreshOnline()).toBe(0);
    expect(errors.last?.message).toBe('background refresh failed: lookup failed');
    expect(updated).toEqual([]);
    expect(online.view('1')?.member.status).toBe('ACTIVE');
  });

  it('members re-read are kept for their next join; those the service could not answer are owed', async () => {
    let status = 'ACTIVE';
    const source = fakeSource(() => lookupOf(status));
    const { online, members, catalog, cache, players, updated } = rosterCore(source);
    await catalog.load();
    const entry = entryOf();
    players.add('1', entry);
    await online.loadPlayer('1', entry);
    status = 'SUSPENDED';
    expect(await online.refreshMembers([license, license])).toEqual([]);
    expect(source.calls.lookupMany).toBe(1);
    expect(updated.map(([src, member]) => [src, member?.status])).toEqual([['1', 'SUSPENDED']]);
    expect(cache.fresh(license)?.member.status).toBe('SUSPENDED');
    source.failLookups = true;
    expect(await online.refreshMembers([license])).toEqual([license]);
    // What is held is a last known record only: the next join asks the service.
    expect(cache.fresh(license)).toBeUndefined();
    expect(members.lastKnown(license)?.member.status).toBe('SUSPENDED');
  });

  it('a confirmed rank reaches every client of the license, the cache and the listeners', async () => {
    const source = fakeSource(() => lookupOf());
    const { online, members, catalog, cache, players, updated } = rosterCore(source);
    await catalog.load();
    for (const src of ['1', '2']) {
      const entry = entryOf();
      players.add(src, entry);
      await online.loadPlayer(src, entry);
    }
    const heard: unknown[] = [];
    members.onAnswer((_license, answer) => heard.push(answer));
    const chief = catalog.index.rank('r-chief')!;
    const member = online.recordRank('1', 'd-lspd', chief);
    expect(member?.departments.find((d) => d.id === 'd-lspd')?.rank?.name).toBe('Chief');
    expect(updated.map(([src]) => src)).toEqual(['1', '2']);
    expect(cache.fresh(license)?.department('LSPD')?.rank?.name).toBe('Chief');
    expect(heard).toEqual(['partial']);
    expect(online.recordRank('9', 'd-lspd', chief)).toBeNull();
  });

  it('departments renamed reshape online players without a request', async () => {
    const source = fakeSource(() => lookupOf());
    const { online, catalog, cache, players, updated } = rosterCore(source);
    await catalog.load();
    const entry = entryOf();
    players.add('1', entry);
    await online.loadPlayer('1', entry);
    const lookups = source.calls.member + source.calls.lookupMany;
    source.departments = {
      ...source.departments,
      departments: source.departments.departments.map((d) =>
        d.id === 'd-lspd' ? { ...d, name: 'Police', shortName: 'PD' } : d,
      ),
    };
    await catalog.load(true);
    expect(online.reshapeOnline()).toBe(1);
    expect(updated).toHaveLength(1);
    expect(online.view('1')?.department('PD')?.name).toBe('Police');
    expect(cache.fresh(license)?.department('PD')).toBeDefined();
    expect(source.calls.member + source.calls.lookupMany).toBe(lookups);
  });

  it('players loaded before the first department list are read again once it arrives', async () => {
    const source = fakeSource(() => lookupOf());
    source.failCatalog = true;
    const { online, catalog, players } = rosterCore(source);
    const entry = entryOf();
    players.add('1', entry);
    await online.loadPlayer('1', entry);
    // Known by id only: the list could not be loaded.
    expect(online.view('1')?.member.departments.map((d) => d.name)).toEqual(['d-lspd', 'd-safr']);
    source.failCatalog = false;
    expect(await catalog.load(true)).toBe(true);
    // The re-read goes out in the background.
    await settle();
    expect(source.calls.lookupMany).toBe(1);
    expect(online.view('1')?.department('LSPD')?.name).toBe('Los Santos Police Department');
  });
});
