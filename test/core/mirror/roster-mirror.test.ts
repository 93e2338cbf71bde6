import { describe, expect, it } from 'vitest';
import { RosterMirror } from '../../../src/core/mirror/roster-mirror';
import type { MemberLookup } from '../../../src/core/model';
import { CatalogIndex } from '../../../src/core/roster/catalog-index';
import { catalog, license, lookupOf } from '../roster/fixtures';

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
    expect(mirror.find(license, index)).toBeUndefined();
    mirror.replaceAll([]);
    expect(mirror.find(license, index)?.member.id).toBe('m-1');
  });

  it('finds a license whatever its case, shaped with the catalog', () => {
    const mirror = upMirror();
    const view = mirror.find(license.toUpperCase().replace('LICENSE:', 'license:'), index);
    expect(view?.member.departments.map((d) => [d.shortName, d.rank?.name, d.primary])).toEqual([
      ['LSPD', 'Officer', false],
      ['SAFR', 'Firefighter', true],
    ]);
    expect(view?.department('lspd')?.callsign).toBe('1-A-12');
  });

  it('a partial answer or "not on the roster" drops the record: the next join is asked', () => {
    const mirror = upMirror();
    mirror.heard(license, 'partial');
    expect(mirror.find(license, index)).toBeUndefined();
    mirror.heard(license, lookupOf());
    mirror.heard(license, null);
    expect(mirror.find(license, index)).toBeUndefined();
    expect(mirror.size).toBe(0);
  });

  it('a member whose license changed is held under the new one only', () => {
    const mirror = upMirror();
    const moved = lookupOf();
    moved.member = { ...moved.member, gameLicense: `license:${'b'.repeat(40)}` };
    mirror.heard(moved.member.gameLicense, moved);
    expect(mirror.find(license, index)).toBeUndefined();
    expect(mirror.find(moved.member.gameLicense, index)?.member.id).toBe('m-1');
    expect(mirror.size).toBe(1);
  });

  it('a license two members claim in a read is not held: whichever came last, the join is looked up', () => {
    const twin = (n: number, status: string): MemberLookup => ({
      member: { ...other(n, status).member, gameLicense: license },
      assignments: [],
    });
    for (const read of [
      [lookupOf('ACTIVE'), twin(2, 'SUSPENDED')],
      [twin(2, 'SUSPENDED'), lookupOf('ACTIVE')],
    ]) {
      const mirror = new RosterMirror(10, () => {});
      mirror.beginRead();
      mirror.replaceAll([...read.map((l) => mirror.compact(l)), mirror.compact(other(3))]);
      expect(mirror.find(license, index)).toBeUndefined();
      expect(mirror.find(other(3).member.gameLicense, index)?.member.id).toBe('m-3');
      // Members read since the last read: one claiming a license held by another is not held either.
      mirror.addAll([
        mirror.compact({
          ...other(5),
          member: { ...other(5).member, gameLicense: other(3).member.gameLicense },
        }),
      ]);
      expect(mirror.find(other(3).member.gameLicense, index)).toBeUndefined();
    }
  });

  it('answers heard during a full read win over the read', () => {
    const mirror = upMirror();
    mirror.beginRead();
    mirror.heard(license, lookupOf('SUSPENDED'));
    mirror.heard(other(2).member.gameLicense, null);
    mirror.replaceAll([mirror.compact(lookupOf('ACTIVE')), mirror.compact(other(2))]);
    expect(mirror.find(license, index)?.member.status).toBe('SUSPENDED');
    expect(mirror.find(other(2).member.gameLicense, index)).toBeUndefined();
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
    expect(mirror.find(license, index)?.member.departments[0]?.rank?.name).toBe('Recruit');
  });
});
