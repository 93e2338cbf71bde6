import { describe, expect, it } from 'vitest';
import { licenseKey } from '../../../src/features/mirror/mirrored-member';
import { RosterMirror } from '../../../src/features/mirror/roster-mirror';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import type { MemberLookup } from '../../../src/roster/model';
import { catalog, license, lookupOf } from '../../roster/fixtures';

const index = new CatalogIndex(catalog);

function upMirror(maxEntries = 10, tooLarge: (size: number) => void = () => {}) {
  const mirror = new RosterMirror(maxEntries, tooLarge);
  mirror.beginRead();
  mirror.replaceAll([mirror.compact(lookupOf())]);
  return mirror;
}

const other = (n: number, status = 'ACTIVE'): MemberLookup => ({
  member: { id: `m-${n}`, status, gameLicense: `license:${String(n).padStart(40, '0')}`, name: `M ${n}` },
  assignments: [],
});

describe('RosterMirror', () => {
  it('answers nothing until a full read completed', () => {
    const mirror = new RosterMirror(10, () => {});
    mirror.beginRead();
    mirror.heard(license, lookupOf());
    expect(mirror.held(license, index)?.answer).toBeUndefined();
    mirror.replaceAll([]);
    expect(mirror.held(license, index)?.answer?.member.id).toBe('m-1');
  });

  it('finds a license whatever its case, shaped with the catalog', () => {
    const mirror = upMirror();
    const view = mirror.held(license.toUpperCase().replace('LICENSE:', 'license:'), index)?.answer;
    expect(view?.member.departments.map((d) => [d.shortName, d.rank?.name, d.primary])).toEqual([
      ['LSPD', 'Officer', false],
      ['SAFR', 'Firefighter', true],
    ]);
    expect(view?.department('lspd')?.callsign).toBe('1-A-12');
  });

  it('a partial answer or "not on the roster" drops the record: the next join is asked', () => {
    const mirror = upMirror();
    mirror.heard(license, 'partial');
    expect(mirror.held(license, index)?.answer).toBeUndefined();
    mirror.heard(license, lookupOf());
    mirror.heard(license, null);
    expect(mirror.held(license, index)?.answer).toBeUndefined();
    expect(mirror.size).toBe(0);
  });

  it('a member whose license changed is held under the new one only', () => {
    const mirror = upMirror();
    const moved = lookupOf();
    moved.member = { ...moved.member, gameLicense: `license:${'b'.repeat(40)}` };
    mirror.heard(moved.member.gameLicense, moved);
    expect(mirror.held(license, index)?.answer).toBeUndefined();
    expect(mirror.held(moved.member.gameLicense, index)?.answer?.member.id).toBe('m-1');
    expect(mirror.size).toBe(1);
  });

  it('a license two members claim: the most recent membership decides, whichever the service lists first', () => {
    const twin = (n: number, status: string, createdAt: string): MemberLookup => ({
      member: { ...other(n, status).member, gameLicense: license, createdAt },
      assignments: [],
    });
    const old = twin(2, 'TERMINATED', '2024-01-01T00:00:00.000Z');
    const renewed = twin(7, 'ACTIVE', '2025-03-01T00:00:00.000Z');
    for (const read of [
      [old, renewed],
      [renewed, old],
    ]) {
      const claims: [string, readonly string[]][] = [];
      const mirror = new RosterMirror(
        10,
        () => {},
        { now: () => 1 },
        { note: (l, ids) => claims.push([l, ids]) },
      );
      mirror.beginRead();
      mirror.replaceAll([...read.map((l) => mirror.compact(l)), mirror.compact(other(3))]);
      expect(mirror.held(license, index)?.answer?.member).toMatchObject({ id: 'm-7', status: 'ACTIVE' });
      expect(mirror.held(other(3).member.gameLicense, index)?.answer?.member.id).toBe('m-3');
      expect(claims).toEqual([[license, ['m-7', 'm-2']]]);
      // Members read since the last read: an older membership never displaces the one held, a newer one does.
      mirror.addAll([mirror.compact(twin(1, 'ACTIVE', '2023-05-05T00:00:00.000Z'))]);
      expect(mirror.held(license, index)?.answer?.member.id).toBe('m-7');
      mirror.addAll([mirror.compact(twin(9, 'SUSPENDED', '2026-01-01T00:00:00.000Z'))]);
      expect(mirror.held(license, index)?.answer?.member).toMatchObject({ id: 'm-9', status: 'SUSPENDED' });
    }
  });

  it('same stamp, or none: the greater id is the more recent membership', () => {
    const twin = (n: number, status: string): MemberLookup => ({
      member: { ...other(n, status).member, gameLicense: license },
      assignments: [],
    });
    const mirror = new RosterMirror(10, () => {});
    mirror.beginRead();
    mirror.replaceAll([mirror.compact(twin(12, 'ACTIVE')), mirror.compact(twin(9, 'SUSPENDED'))]);
    expect(mirror.held(license, index)?.answer?.member.id).toBe('m-12');
  });

  it('a member the audit log named while a full read ran is not answered from it until read again', () => {
    const mirror = upMirror();
    const stranger = other(4);
    mirror.beginRead();
    // Named before the read brought them (no record held yet), by member id and by assignment id.
    mirror.named(['m-4', 'unrelated-value']);
    mirror.named([lookupOf().assignments[0]!.id]);
    const replaced = mirror.replaceAll([
      mirror.compact(lookupOf()),
      mirror.compact(stranger),
      mirror.compact(other(5)),
    ]);
    expect(replaced.named.sort()).toEqual([license, stranger.member.gameLicense].sort());
    expect(replaced.overflowed).toBe(false);
    expect(mirror.held(stranger.member.gameLicense, index)?.answer).toBeUndefined();
    expect(mirror.held(license, index)?.answer).toBeUndefined();
    expect(mirror.held(other(5).member.gameLicense, index)?.answer?.member.id).toBe('m-5');
    // Still a last known record for the outage policy.
    expect(mirror.lastKnown(stranger.member.gameLicense, index)?.view.member.id).toBe('m-4');
    // Read again: answered.
    mirror.heard(stranger.member.gameLicense, other(4, 'SUSPENDED'));
    expect(mirror.held(stranger.member.gameLicense, index)?.answer?.member.status).toBe('SUSPENDED');
    // Named after the read completed: nothing kept (the feed re-reads the members it finds held).
    mirror.named(['m-5']);
    mirror.beginRead();
    expect(mirror.replaceAll([mirror.compact(other(5))]).named).toEqual([]);
  });

  it('members read since the last read that a change named meanwhile are doubted; a window past its bound says so', () => {
    const mirror = upMirror();
    const window = mirror.openWindow();
    mirror.named(['m-6']);
    const added = mirror.addAll([mirror.compact(other(6)), mirror.compact(other(8))], 5, window);
    expect(added.named).toEqual([other(6).member.gameLicense]);
    expect(mirror.held(other(6).member.gameLicense, index)?.answer).toBeUndefined();
    expect(mirror.held(other(8).member.gameLicense, index)?.answer?.member.id).toBe('m-8');
    mirror.beginRead();
    mirror.named(Array.from({ length: 50_001 }, (_, i) => `id-${i}`));
    expect(mirror.replaceAll([]).overflowed).toBe(true);
  });

  it('knows when each record was read: a full read stamps when it began, an answer when it came', () => {
    let now = 100;
    const mirror = new RosterMirror(10, () => {}, { now: () => now });
    mirror.beginRead();
    mirror.replaceAll([mirror.compact(lookupOf()), mirror.compact(other(2))], 40);
    now = 250;
    mirror.heard(other(2).member.gameLicense, other(2, 'SUSPENDED'));
    expect(mirror.lastKnown(license, index)?.readAt).toBe(40);
    expect(mirror.lastKnown(other(2).member.gameLicense, index)?.readAt).toBe(250);
  });

  it('answers heard during a full read are kept over it; one the read contradicts is read again before it is answered', () => {
    const mirror = upMirror();
    mirror.beginRead();
    mirror.heard(license, lookupOf('SUSPENDED'));
    mirror.heard(other(2).member.gameLicense, null);
    mirror.heard(other(3).member.gameLicense, other(3));
    const replaced = mirror.replaceAll([
      mirror.compact(lookupOf('ACTIVE')),
      mirror.compact(other(2)),
      mirror.compact(other(3)),
    ]);
    // The read's page may be the newer of the two (a read stretched by 429s): not answered.
    expect(mirror.held(license, index)?.answer).toBeUndefined();
    expect(mirror.lastKnown(license, index)?.view.member.status).toBe('SUSPENDED');
    expect(replaced.named).toEqual([licenseKey(license)]);
    expect(mirror.held(other(2).member.gameLicense, index)?.answer).toBeUndefined();
    // The same record both ways is answered at once.
    expect(mirror.held(other(3).member.gameLicense, index)?.answer?.member.id).toBe(other(3).member.id);
    mirror.heard(license, lookupOf('SUSPENDED'));
    expect(mirror.held(license, index)?.answer?.member.status).toBe('SUSPENDED');
  });

  it('says when answers take it past its bound', () => {
    const sizes: number[] = [];
    const mirror = upMirror(2, (size) => sizes.push(size));
    mirror.heard('x', other(2));
    expect(sizes).toEqual([]);
    mirror.heard('x', other(3));
    expect(sizes).toEqual([3]);
  });

  it('shares one object per expanded rank', () => {
    const mirror = new RosterMirror(10, () => {});
    const expanded = () => ({ id: 'r-new', departmentId: 'd-lspd', name: 'Recruit', position: 9 });
    const a = mirror.assignment({ ...lookupOf().assignments[0]!, rankId: 'r-new', rank: expanded() });
    const b = mirror.assignment({ ...lookupOf().assignments[0]!, rankId: 'r-new', rank: expanded() });
    expect(a.rank).toBe(b.rank);
    // A rank the catalog does not know yet still has its name.
    mirror.beginRead();
    mirror.replaceAll([{ ...mirror.compact(lookupOf()), assignments: [a] }]);
    expect(mirror.held(license, index)?.answer?.member.departments[0]?.rank?.name).toBe('Recruit');
  });
});
