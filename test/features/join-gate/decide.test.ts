import { describe, expect, it } from 'vitest';
import { rosterVerdict } from '../../../src/features/join-gate/decide';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import { toMemberView } from '../../../src/roster/member-view';
import { catalog, lookupOf } from '../../roster/fixtures';

const index = new CatalogIndex(catalog);

describe('rosterVerdict', () => {
  it('refuses a license that is not on the roster', () => {
    expect(rosterVerdict(null, { requireStatus: ['ACTIVE'], departments: [] })).toEqual({
      allow: false,
      reason: 'not_on_roster',
    });
  });

  it('admits an active member and refuses another status, naming it', () => {
    const rules = { requireStatus: ['ACTIVE'], departments: [] };
    expect(rosterVerdict(toMemberView(lookupOf(), index), rules)).toEqual({ allow: true });
    expect(rosterVerdict(toMemberView(lookupOf('SUSPENDED'), index), rules)).toEqual({
      allow: false,
      reason: 'status',
      status: 'SUSPENDED',
    });
  });

  it('requires one of the listed departments when the list is not empty', () => {
    const view = toMemberView(lookupOf(), index);
    expect(rosterVerdict(view, { requireStatus: ['ACTIVE'], departments: ['BCSO', 'safr'] })).toEqual({
      allow: true,
    });
    expect(rosterVerdict(view, { requireStatus: ['ACTIVE'], departments: ['BCSO'] })).toEqual({
      allow: false,
      reason: 'department',
    });
  });
});
