import { describe, expect, it } from 'vitest';
import { rosterVerdict } from '../../src/features/join-gate/decide';
import { CatalogIndex } from '../../src/roster/catalog-index';
import { statusAdmits } from '../../src/roster/member-status';
import { toMemberView } from '../../src/roster/member-view';
import { RosterQueries } from '../../src/roster/queries';
import { catalog, lookupOf } from './fixtures';

const index = new CatalogIndex(catalog);

describe('statusAdmits', () => {
  it('admits the listed statuses whatever their case and surrounding spaces', () => {
    const admits = statusAdmits(['ACTIVE', ' on leave ']);
    expect(admits('ACTIVE')).toBe(true);
    expect(admits('active')).toBe(true);
    expect(admits(' Active ')).toBe(true);
    expect(admits('ON LEAVE')).toBe(true);
  });

  it('admits no other status, and none at all from an empty list', () => {
    expect(statusAdmits(['ACTIVE'])('SUSPENDED')).toBe(false);
    expect(statusAdmits(['ACTIVE'])('ACTIVE_PENDING')).toBe(false);
    expect(statusAdmits([])('ACTIVE')).toBe(false);
  });

  it('the join gate and isOnRoster agree on every status', () => {
    const requireStatus = ['Active', 'RESERVE'];
    const queries = new RosterQueries(requireStatus, 'top-down', () => index);
    for (const status of ['ACTIVE', 'active ', 'reserve', 'SUSPENDED', 'TERMINATED', '']) {
      const view = toMemberView(lookupOf(status), index);
      const admitted = statusAdmits(requireStatus)(status);
      expect(rosterVerdict(view, { requireStatus, departments: [] }).allow).toBe(admitted);
      expect(queries.isOnRoster(view)).toBe(admitted);
    }
  });
});
