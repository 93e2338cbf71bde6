import { CatalogIndex } from '../../src/roster/catalog-index';
import { toApiMember } from '../../src/roster/client/record-schemas';
import { type MemberView, toMemberView } from '../../src/roster/member-view';
import type { ApiAssignment, Catalog } from '../../src/roster/model';
import { RosterQueries } from '../../src/roster/queries';
import type { MockMember } from '../mock-roster/records';
import type { RosterStore } from '../mock-roster/roster-store';
import { startMockRoster } from '../mock-roster/server';
import { rosterReady, sleep, startGateServer } from './gate-servers';

/** The departments and ranks of the mock's community as the client would have parsed them. */
export function catalogOf(store: RosterStore): Catalog {
  return {
    departments: store.data.departments.map((d) => ({ id: d.id, name: d.name, shortName: d.shortName })),
    ranks: store.data.ranks.map((r) => ({
      id: r.id,
      departmentId: r.departmentId,
      name: r.name,
      position: r.position,
    })),
  };
}

/** One member's lookup as the client builds it from the two answers. */
export function lookupOf(
  store: RosterStore,
  member: MockMember,
): { member: ReturnType<typeof toApiMember>; assignments: ApiAssignment[] } {
  const record = JSON.parse(JSON.stringify(member));
  const assignments: ApiAssignment[] = store.assignmentsOf(member.id).map((a) => {
    const rank = a.rankId ? store.rank(a.rankId) : undefined;
    const copy = JSON.parse(JSON.stringify({ ...a, rank }));
    return {
      id: copy.id,
      memberId: copy.memberId,
      departmentId: copy.departmentId,
      rankId: copy.rankId,
      isPrimary: copy.isPrimary,
      callsign: copy.callsign,
      rank: copy.rank
        ? {
            id: copy.rank.id,
            departmentId: copy.rank.departmentId,
            name: copy.rank.name,
            position: copy.rank.position,
          }
        : null,
    };
  });
  return { member: toApiMember(record, undefined), assignments };
}

/** An ACTIVE member whose primary department is LSPD at Sergeant or above, so hasMinRank says yes. */
function lspdMember(store: RosterStore): MockMember {
  const found = store.members.find(
    (m) =>
      m.status === 'ACTIVE' &&
      store
        .assignmentsOf(m.id)
        .some(
          (a) =>
            a.departmentId === 'dept_lspd' &&
            a.isPrimary &&
            a.rankId &&
            (store.rank(a.rankId)?.position ?? 9) <= 5,
        ),
  );
  if (!found) throw new Error('no ACTIVE LSPD Sergeant (or above) in the mock roster');
  return found;
}

/**
 * `hasMinRank` calls per second in process (RosterQueries on a MemberView) for about `budgetMs`.
 * `typical` asks what scripts ask ('LSPD', 'Sergeant'); `mixed` rotates department and rank
 * spellings (short name, id, full name; three ranks) so no string is the same twice in a row.
 */
export function hotPathInProcess(store: RosterStore, mode: 'typical' | 'mixed', budgetMs = 1_000): number {
  const catalog = new CatalogIndex(catalogOf(store));
  const view: MemberView = toMemberView(lookupOf(store, lspdMember(store)), catalog);
  const queries = new RosterQueries(['ACTIVE'], 'top-down', () => catalog);
  const departments = mode === 'typical' ? ['LSPD'] : ['LSPD', 'dept_lspd', 'Los Santos Police Department'];
  const ranks = mode === 'typical' ? ['Sergeant'] : ['Sergeant', 'Officer', 'Captain'];
  const n = departments.length;
  let yes = 0;
  const round = (count: number) => {
    for (let i = 0; i < count; i++) if (queries.hasMinRank(view, departments[i % n]!, ranks[i % n]!)) yes++;
  };
  round(300_000); // JIT warm-up
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    round(500_000);
    calls += 500_000;
    elapsed = performance.now() - start;
  }
  if (yes === 0) throw new Error('hasMinRank never answered true');
  return (calls / elapsed) * 1000;
}

/** `exports.roster.hasMinRank` from another JS resource in the emulator, for a joined member. */
export async function hotPathThroughExports(budgetMs = 1_000): Promise<number> {
  const mock = await startMockRoster({ port: 0, members: 200, seed: 1 });
  const gate = await startGateServer('roster', mock);
  try {
    await rosterReady(gate, mock);
    const member = lspdMember(mock.data);
    const decision = await gate.server.connectPlayer({
      name: member.displayName,
      identifiers: [member.gameLicense],
    }).decision;
    if (!decision.admitted) throw new Error(`the LSPD member was refused: ${decision.reason}`);
    const caller = gate.server.createScriptResource('bench-caller');
    // The join is decided on the member's status; departments and ranks follow: wait for them.
    for (let waited = 0; ; waited += 20) {
      const loaded = caller.eval<boolean>(`exports.roster.hasMinRank(${decision.id}, 'LSPD', 'Sergeant')`);
      if (loaded) break;
      if (waited > 10_000) throw new Error('the member was never loaded with their departments');
      await sleep(20);
    }
    const run = (count: number) =>
      caller.eval<number>(`(() => {
        const start = performance.now();
        let yes = 0;
        for (let i = 0; i < ${count}; i++) if (exports.roster.hasMinRank(${decision.id}, 'LSPD', 'Sergeant')) yes++;
        if (yes !== ${count}) throw new Error('hasMinRank answered false ' + (${count} - yes) + ' times');
        return performance.now() - start;
      })()`);
    run(2_000);
    let calls = 0;
    let elapsed = 0;
    while (elapsed < budgetMs) {
      elapsed += run(5_000);
      calls += 5_000;
    }
    return (calls / elapsed) * 1000;
  } finally {
    gate.close();
    await mock.close();
  }
}
