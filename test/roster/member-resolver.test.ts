import { describe, expect, it } from 'vitest';
import type { CatalogIndex } from '../../src/roster/catalog-index';
import type { HeldRecord, KnownRecord, MemberMirror } from '../../src/roster/member-mirror';
import { type MemberView, toMemberView } from '../../src/roster/member-view';
import type { MemberLookup } from '../../src/roster/model';
import { fakeSource, rosterCore } from './core-rig';
import { license, lookupOf } from './fixtures';

/** A mirror holding one record for `license`, counting what it is asked. */
function fakeMirror(record: MemberLookup, readAt: number, answering = true) {
  const asked = { held: 0, lastKnown: 0 };
  const shaped = (catalog: CatalogIndex): MemberView => toMemberView(record, catalog);
  const mirror: MemberMirror & { asked: typeof asked; answering: boolean; wholeAt: number | null } = {
    asked,
    answering,
    wholeAt: null,
    held(wanted: string, catalog: CatalogIndex | null): HeldRecord | undefined {
      asked.held++;
      if (wanted !== license) return undefined;
      return { answer: mirror.answering && catalog ? shaped(catalog) : undefined, readAt };
    },
    licenseNamedBy: () => undefined,
    lastKnown(wanted: string, catalog: CatalogIndex | null): KnownRecord | undefined {
      asked.lastKnown++;
      return wanted === license && catalog ? { view: shaped(catalog), readAt } : undefined;
    },
    doubt() {},
  };
  return mirror;
}

describe('MemberResolver', () => {
  it('a join is answered with the full record: the members request, then its assignments', async () => {
    const source = fakeSource(() => lookupOf());
    const { members } = rosterCore(source);
    const answer = await members.resolve(license, 'join', { decideOnly: true });
    expect(answer).toMatchObject({ kind: 'answer' });
    expect(answer.kind === 'answer' && answer.partial).toBeFalsy();
    expect(answer.kind === 'answer' && answer.view?.member.departments.map((d) => d.shortName)).toEqual([
      'LSPD',
      'SAFR',
    ]);
    expect(source.calls).toMatchObject({ member: 1, assignments: 1, lookup: 0 });
    // Cached in full: the next join costs nothing.
    await members.resolve(license, 'join', { decideOnly: true });
    expect(source.calls).toMatchObject({ member: 1, assignments: 1, lookup: 0 });
  });

  it('a status the gate refuses is decided on the members request alone, and is no record for anyone else', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    const { members } = rosterCore(source);
    const refused = await members.resolve(license, 'join', { decideOnly: true });
    expect(refused).toMatchObject({ kind: 'answer', partial: true });
    expect(refused.kind === 'answer' && refused.view?.member.status).toBe('SUSPENDED');
    expect(source.calls).toMatchObject({ member: 1, assignments: 0, lookup: 0 });
    // A reconnect is refused from the cache.
    await members.resolve(license, 'join', { decideOnly: true });
    expect(source.calls.member).toBe(1);
    // Anyone wanting the record (a bypassed player loading) gets it in full.
    const full = await members.resolve(license, 'join');
    expect(full.kind === 'answer' && full.partial).toBeFalsy();
    expect(full.kind === 'answer' && full.view?.member.departments).toHaveLength(2);
    expect(source.calls).toMatchObject({ member: 2, assignments: 1, lookup: 0 });
  });

  it("a refused status of another membership of the license is that member's: found by its id, not the last one's", async () => {
    let answer = lookupOf('ACTIVE');
    const source = fakeSource(() => answer);
    const { members, cache } = rosterCore(source);
    await members.resolve(license, 'join', { decideOnly: true });
    expect(cache.licenseNamedBy('m-1')).toBe(license);
    // The newest membership was deleted: an older, terminated one now answers for the license.
    const older = lookupOf('TERMINATED');
    answer = { member: { ...older.member, id: 'm-0' }, assignments: [] };
    cache.markStale(license);
    const refused = await members.resolve(license, 'join', { decideOnly: true });
    expect(refused.kind === 'answer' && refused.view?.member).toMatchObject({
      id: 'm-0',
      status: 'TERMINATED',
    });
    expect(refused.kind === 'answer' && refused.view?.member.departments).toEqual([]);
    // An audit entry naming the older membership (its deletion) finds the license held.
    expect(cache.licenseNamedBy('m-0')).toBe(license);
  });

  it('when the departments cannot be had, a join is an outage with the last known record, never "no departments"', async () => {
    const source = fakeSource(() => lookupOf());
    const { members, cache, errors } = rosterCore(source);
    source.failAssignments = true;
    const first = await members.resolve(license, 'join', { decideOnly: true });
    expect(first).toMatchObject({ kind: 'outage', lastKnown: undefined });
    expect(errors.last?.message).toBe('roster lookup failed: assignments request failed');
    source.failAssignments = false;
    await members.resolve(license, 'join');
    cache.remember(license, cache.lastKnown(license)!, 0);
    source.failAssignments = true;
    const again = await members.resolve(license, 'join', { decideOnly: true });
    expect(again.kind).toBe('outage');
    expect(again.kind === 'outage' && again.lastKnown?.member.departments).toHaveLength(2);
  });

  it('every answer the service gives is heard by the listeners, a refused status as partial', async () => {
    let status = 'ACTIVE';
    const source = fakeSource(() => lookupOf(status));
    const { members } = rosterCore(source);
    const heard: [string, string][] = [];
    const stop = members.onAnswer((l, answer) =>
      heard.push([l, answer === null || answer === 'partial' ? String(answer) : answer.member.status]),
    );
    await members.fetch(license, 'refresh');
    status = 'SUSPENDED';
    await members.fetch(license, 'join', true);
    stop();
    await members.fetch(license, 'refresh');
    expect(heard).toEqual([
      [license, 'ACTIVE'],
      [license, 'partial'],
    ]);
  });
});

describe('MemberResolver, the mirror', () => {
  it('a license the mirror answers for costs no request, and the mirror is asked once', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    const { members, catalog } = rosterCore(source);
    await catalog.load();
    const mirror = fakeMirror(lookupOf(), 10);
    members.useMirror(mirror);
    const answer = await members.resolve(license, 'join', { decideOnly: true });
    expect(answer.kind === 'answer' && answer.view?.member.status).toBe('ACTIVE');
    expect(mirror.asked).toEqual({ held: 1, lastKnown: 0 });
    expect(source.calls).toMatchObject({ member: 0, lookup: 0 });
  });

  it('an answering mirror before departments and ranks are known: joins wait for their one first load, not a lookup', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    const { members } = rosterCore(source);
    members.useMirror(fakeMirror(lookupOf(), 10));
    const answers = await Promise.all([
      members.resolve(license, 'join', { decideOnly: true }),
      members.resolve(license, 'join', { decideOnly: true }),
    ]);
    for (const answer of answers)
      expect(answer.kind === 'answer' && answer.view?.member.status).toBe('ACTIVE');
    expect(source.calls).toMatchObject({ member: 0, lookup: 0, catalog: 1 });
  });

  it('a cached answer older than what the mirror read is not taken: the service is asked, the mirror once', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    const { members, catalog, cache, clock } = rosterCore(source);
    await catalog.load();
    cache.set(license, toMemberView(lookupOf(), catalog.index));
    // The mirror holds the license (not answering) and read it after the cache's answer.
    const mirror = fakeMirror(lookupOf('SUSPENDED'), clock.now() + 1, false);
    members.useMirror(mirror);
    const answer = await members.resolve(license, 'join', { decideOnly: true });
    expect(answer).toMatchObject({ kind: 'answer', partial: true });
    expect(answer.kind === 'answer' && answer.view?.member.status).toBe('SUSPENDED');
    expect(source.calls.member).toBe(1);
    expect(mirror.asked).toEqual({ held: 1, lastKnown: 0 });
  });

  it('a cached answer as recent as what the mirror read is taken', async () => {
    const source = fakeSource(() => lookupOf('SUSPENDED'));
    const { members, catalog, cache, clock } = rosterCore(source);
    await catalog.load();
    cache.set(license, toMemberView(lookupOf(), catalog.index));
    members.useMirror(fakeMirror(lookupOf('SUSPENDED'), clock.now(), false));
    const answer = await members.resolve(license, 'join', { decideOnly: true });
    expect(answer.kind === 'answer' && answer.view?.member.status).toBe('ACTIVE');
    expect(source.calls.member).toBe(0);
  });

  it('in an outage the last known record is the one read most recently, the cache’s or the mirror’s', async () => {
    const source = fakeSource(() => lookupOf());
    const { members, catalog, cache } = rosterCore(source);
    await catalog.load();
    cache.remember(license, toMemberView(lookupOf('ACTIVE'), catalog.index), 100);
    const mirror = fakeMirror(lookupOf('SUSPENDED'), 200, false);
    members.useMirror(mirror);
    expect(members.lastKnown(license)?.member.status).toBe('SUSPENDED');
    mirror.held = () => undefined;
    mirror.lastKnown = () => undefined;
    // A full read since the cache's answer did not find the license: not on the roster.
    mirror.wholeAt = 150;
    expect(members.lastKnown(license)).toBeUndefined();
    mirror.wholeAt = 50;
    expect(members.lastKnown(license)?.member.status).toBe('ACTIVE');
  });
});

describe('MemberResolver, last known records', () => {
  it('a new status the gate refuses keeps the departments last known', async () => {
    let status = 'ACTIVE';
    const source = fakeSource(() => lookupOf(status));
    const { members, catalog, cache } = rosterCore(source);
    await catalog.load();
    await members.resolve(license, 'join');
    expect(cache.lastKnown(license)?.member.departments).toHaveLength(2);
    cache.remember(license, cache.lastKnown(license)!, 0);
    status = 'SUSPENDED';
    await members.resolve(license, 'join', { decideOnly: true });
    const known = cache.lastKnown(license)!;
    expect(known.member.status).toBe('SUSPENDED');
    expect(known.member.departments.map((d) => d.shortName)).toEqual(['LSPD', 'SAFR']);
  });
});
