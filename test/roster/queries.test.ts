import { describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/roster/catalog-index';
import { memberChanged, toMemberView, viewOf } from '../../src/roster/member-view';
import { RosterQueries } from '../../src/roster/queries';
import { catalog, lookupOf } from './fixtures';

const index = new CatalogIndex(catalog);
const topDown = new RosterQueries(['ACTIVE'], 'top-down', () => index);

describe('member view', () => {
  it('shapes departments with names, short names and ranks from the catalog', () => {
    const view = toMemberView(lookupOf(), index);
    expect(view.member.departments).toEqual([
      {
        id: 'd-lspd',
        name: 'Los Santos Police Department',
        shortName: 'LSPD',
        primary: false,
        callsign: '1-A-12',
        rank: { id: 'r-off', name: 'Officer', position: 7 },
      },
      {
        id: 'd-safr',
        name: 'San Andreas Fire Rescue',
        shortName: 'SAFR',
        primary: true,
        callsign: null,
        rank: { id: 'r-ff', name: 'Firefighter', position: 4 },
      },
    ]);
    expect(view.primary?.id).toBe('d-safr');
  });

  it('finds a department by id, name or short name, in any case, an id before a name', () => {
    const view = toMemberView(lookupOf(), index);
    expect(view.department('d-safr')?.shortName).toBe('SAFR');
    expect(view.department('Los Santos Police Department')?.id).toBe('d-lspd');
    expect(view.department(' lspd ')?.id).toBe('d-lspd');
    expect(view.department('D-SAFR')?.id).toBe('d-safr');
    expect(view.department('EMS')).toBeUndefined();
    // A department named like another's id does not shadow that id.
    const [lspd, safr] = view.member.departments;
    const shadowing = viewOf({ ...view.member, departments: [{ ...lspd!, name: 'd-safr' }, safr!] });
    expect(shadowing.department('d-safr')?.id).toBe('d-safr');
  });

  it('marks the first department primary when the service marks none', () => {
    const lookup = lookupOf();
    for (const a of lookup.assignments) a.isPrimary = false;
    expect(toMemberView(lookup, index).primary?.id).toBe('d-lspd');
  });

  it('detects changes of status, rank and department, not of name', () => {
    const before = toMemberView(lookupOf(), index).member;
    expect(memberChanged(before, toMemberView(lookupOf(), index).member)).toBe(false);
    expect(memberChanged(before, toMemberView(lookupOf('SUSPENDED'), index).member)).toBe(true);
    expect(memberChanged(before, toMemberView(lookupOf('ACTIVE', 'r-sgt'), index).member)).toBe(true);
    expect(memberChanged(before, null)).toBe(true);
    expect(memberChanged(null, null)).toBe(false);
    expect(memberChanged(before, { ...before, name: 'Renamed' })).toBe(false);
  });
});

describe('roster queries', () => {
  const view = toMemberView(lookupOf(), index);

  it('matches departments by id, name or short name, case-insensitively', () => {
    for (const key of ['d-lspd', 'Los Santos Police Department', 'lspd', 'LSPD ']) {
      expect(topDown.isInDepartment(view, key)).toBe(true);
    }
    expect(topDown.isInDepartment(view, 'BCSO')).toBe(false);
    expect(topDown.isInDepartment(undefined, 'LSPD')).toBe(false);
  });

  it('reads the primary rank without a department and a department rank with one', () => {
    expect(topDown.rank(view)?.name).toBe('Firefighter');
    expect(topDown.rank(view, 'lspd')?.name).toBe('Officer');
    expect(topDown.rank(view, 'BCSO')).toBeNull();
  });

  it('hasRank is exact, by id or name', () => {
    expect(topDown.hasRank(view, 'LSPD', 'officer')).toBe(true);
    expect(topDown.hasRank(view, 'LSPD', 'r-off')).toBe(true);
    expect(topDown.hasRank(view, 'LSPD', 'Sergeant')).toBe(false);
  });

  it('hasMinRank follows the ladder: top-down means a smaller position is senior', () => {
    const sergeant = toMemberView(lookupOf('ACTIVE', 'r-sgt'), index);
    expect(topDown.hasMinRank(sergeant, 'LSPD', 'Officer')).toBe(true);
    expect(topDown.hasMinRank(sergeant, 'LSPD', 'Sergeant')).toBe(true);
    expect(topDown.hasMinRank(sergeant, 'LSPD', 'Chief')).toBe(false);
    expect(topDown.hasMinRank(sergeant, 'LSPD', 'No Such Rank')).toBe(false);
    expect(topDown.hasMinRank(sergeant, 'SAFR', 'Officer')).toBe(false);
  });

  it('hasMinRank reverses under bottom-up', () => {
    const bottomUp = new RosterQueries(['ACTIVE'], 'bottom-up', () => index);
    const sergeant = toMemberView(lookupOf('ACTIVE', 'r-sgt'), index);
    expect(bottomUp.hasMinRank(sergeant, 'LSPD', 'Officer')).toBe(false);
    expect(bottomUp.hasMinRank(sergeant, 'LSPD', 'Chief')).toBe(true);
  });

  it('isOnRoster follows the required statuses', () => {
    expect(topDown.isOnRoster(view)).toBe(true);
    expect(topDown.isOnRoster(toMemberView(lookupOf('SUSPENDED'), index))).toBe(false);
    expect(
      new RosterQueries(['ACTIVE', 'LOA'], 'top-down', () => index).isOnRoster(
        toMemberView(lookupOf('loa'), index),
      ),
    ).toBe(true);
  });

  it('lists a department ladder most senior first', () => {
    expect(index.ladder('d-lspd', 'top-down').map((r) => r.name)).toEqual(['Chief', 'Sergeant', 'Officer']);
    expect(index.ladder('d-lspd', 'bottom-up').map((r) => r.name)).toEqual(['Officer', 'Sergeant', 'Chief']);
  });
});

describe('ids before names', () => {
  it("a rank or department named like another's id never shadows that id", () => {
    const shadowed = new CatalogIndex({
      departments: [
        { id: 'd-a', name: 'd-b', shortName: null },
        { id: 'd-b', name: 'Fire', shortName: 'FD' },
      ],
      ranks: [
        // Listed first, and named exactly like the Chief's id.
        { id: 'r-cadet', departmentId: 'd-a', name: 'r-chief', position: 9 },
        { id: 'r-chief', departmentId: 'd-a', name: 'Chief', position: 1 },
      ],
    });
    expect(shadowed.rankIn('d-a', 'r-chief')?.name).toBe('Chief');
    expect(shadowed.rankIn('d-a', 'R-CHIEF')?.name).toBe('Chief');
    expect(shadowed.rankIn('d-a', 'r-cadet')?.position).toBe(9);
    expect(shadowed.department('d-b')?.name).toBe('Fire');
    expect(shadowed.department('D-B')?.name).toBe('Fire');
    const view = toMemberView(
      {
        member: { id: 'm', status: 'ACTIVE', gameLicense: `license:${'a'.repeat(40)}`, name: 'M' },
        assignments: [
          {
            id: 'a1',
            memberId: 'm',
            departmentId: 'd-a',
            rankId: 'r-cadet',
            isPrimary: true,
            callsign: null,
            rank: null,
          },
          {
            id: 'a2',
            memberId: 'm',
            departmentId: 'd-b',
            rankId: null,
            isPrimary: false,
            callsign: null,
            rank: null,
          },
        ],
      },
      shadowed,
    );
    expect(view.department('d-b')?.name).toBe('Fire');
    expect(view.department('D-B')?.name).toBe('Fire');
    // The Cadet (named "r-chief") does not hold the rank whose id is r-chief.
    const queries = new RosterQueries(['ACTIVE'], 'top-down', () => shadowed);
    expect(queries.hasRank(view, 'd-a', 'r-chief')).toBe(false);
    expect(queries.hasRank(view, 'd-a', 'r-cadet')).toBe(true);
    expect(queries.hasMinRank(view, 'd-a', 'r-chief')).toBe(false);
  });
});
