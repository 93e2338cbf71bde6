import { describe, expect, it } from 'vitest';
import { rosterVerdict } from '../../../src/features/join-gate/decide';
import { PriorityRules } from '../../../src/features/queue/priority-rules';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import { toMemberView } from '../../../src/roster/member-view';
import { RosterQueries } from '../../../src/roster/queries';
import { catalog, lookupOf } from '../../roster/fixtures';

const index = new CatalogIndex(catalog);
const queries = new RosterQueries(['ACTIVE'], 'top-down', () => index);
const rules = (configured: ConstructorParameters<typeof PriorityRules>[0]) =>
  new PriorityRules(
    configured,
    queries,
    (view) => rosterVerdict(view, { requireStatus: ['ACTIVE'], departments: [] }).allow,
  );
const view = (status = 'ACTIVE', rankId: string | null = 'r-off') =>
  toMemberView(lookupOf(status, rankId), index);

describe('queue priority rules', () => {
  const sergeantThenSafr = rules([
    { department: 'LSPD', minRank: 'Sergeant', power: 50 },
    { department: 'safr', power: 40 },
    { power: 10 },
  ]);

  it('first match wins: a sergeant (and above) of LSPD gets 50, below that the SAFR rule, 40', () => {
    expect(sergeantThenSafr.powerOf(view('ACTIVE', 'r-sgt'))).toBe(50);
    expect(sergeantThenSafr.powerOf(view('ACTIVE', 'r-chief'))).toBe(50);
    expect(sergeantThenSafr.powerOf(view('ACTIVE', 'r-off'))).toBe(40);
  });

  it('only members the gate admits match; unknown and not on the roster get 0', () => {
    expect(sergeantThenSafr.powerOf(view('SUSPENDED', 'r-chief'))).toBe(0);
    expect(sergeantThenSafr.powerOf(null)).toBe(0);
    expect(sergeantThenSafr.powerOf(undefined)).toBe(0);
  });

  it('a rank without a department matches it in any department; a rule with neither matches all admitted', () => {
    expect(rules([{ minRank: 'Firefighter', power: 7 }]).powerOf(view())).toBe(7);
    expect(rules([{ minRank: 'Chief', power: 7 }]).powerOf(view())).toBe(0);
    expect(rules([{ power: 3 }]).powerOf(view())).toBe(3);
  });

  it('rules naming an unknown department or rank are named and left out once the catalog is read', () => {
    const checked = rules([
      { department: 'NOPE', power: 90 },
      { department: 'LSPD', minRank: 'Grand Marshal', power: 80 },
      { minRank: 'Nobody', power: 70 },
      { power: 10 },
    ]);
    const problems = checked.check(index);
    expect(problems).toEqual([
      'queue.priority[0] (NOPE: power 90): no department "NOPE"; left out.',
      'queue.priority[1] (LSPD from Grand Marshal: power 80): LSPD has no rank "Grand Marshal"; left out.',
      'queue.priority[2] (any department from Nobody: power 70): no department has a rank "Nobody"; left out.',
    ]);
    expect(checked.rules).toEqual([{ power: 10 }]);
    expect(checked.powerOf(view())).toBe(10);
  });
});
