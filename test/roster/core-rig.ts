import { RosterCatalog } from '../../src/roster/catalog';
import { MemberCache } from '../../src/roster/member-cache';
import { MemberResolver } from '../../src/roster/member-resolver';
import type {
  ApiAssignment,
  Catalog,
  KeyIdentity,
  Member,
  MemberFound,
  MemberLookup,
} from '../../src/roster/model';
import { OnlinePlayers } from '../../src/roster/online-players';
import { PlayerRegistry } from '../../src/roster/player-registry';
import { RosterErrors } from '../../src/roster/roster-errors';
import type { RosterSource } from '../../src/roster/roster-source';
import { FakeClock } from '../http/limiter/fake-clock';
import { recordingLogger } from './client/fake-roster';
import { catalog } from './fixtures';

/** A roster source whose answers a test controls, counting calls. */
export function fakeSource(answer: () => MemberLookup | null) {
  const calls = { member: 0, assignments: 0, lookup: 0, lookupMany: 0, catalog: 0 };
  let release: (() => void) | undefined;
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
    });
  const source: RosterSource & {
    calls: typeof calls;
    hold: boolean;
    failAssignments: boolean;
    failCatalog: boolean;
    failLookups: boolean;
    departments: Catalog;
    release(): void;
  } = {
    calls,
    hold: false,
    failAssignments: false,
    failCatalog: false,
    failLookups: false,
    departments: catalog,
    release: () => release?.(),
    whoami: async (): Promise<KeyIdentity> => ({ community: { id: 'c', name: 'C' }, scopes: [] }),
    catalog: async (): Promise<Catalog> => {
      calls.catalog++;
      if (source.failCatalog) throw new Error('departments unavailable');
      return source.departments;
    },
    estimateWaitMs: () => 0,
    lookup: async () => {
      calls.lookup++;
      if (source.failLookups) throw new Error('lookup failed');
      return answer();
    },
    lookupMany: async (licenses) => {
      calls.lookupMany++;
      if (source.failLookups) throw new Error('lookup failed');
      return new Map(licenses.map((l) => [l, answer()]));
    },
    member: async (): Promise<MemberFound | null> => {
      calls.member++;
      if (source.failLookups) throw new Error('lookup failed');
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

/** The roster core as the context builds it (catalog, member resolver, online players) over `source`. */
export function rosterCore(source: RosterSource) {
  const clock = new FakeClock();
  const { logger, lines } = recordingLogger();
  const players = new PlayerRegistry();
  const loaded: [string, Member | null][] = [];
  const updated: [string, Member | null, Member | null][] = [];
  const catalogsLoaded: number[] = [];
  const cache = new MemberCache({
    maxEntries: 100,
    ttlMs: 600_000,
    negativeTtlMs: 60_000,
    now: () => clock.now(),
  });
  const errors = new RosterErrors(clock, logger);
  const departments = new RosterCatalog({
    source,
    clock,
    errors,
    loaded: (index) => catalogsLoaded.push(index.departments.size),
  });
  const members = new MemberResolver({
    source,
    cache,
    catalog: departments,
    errors,
    joinNeedsDepartments: onlyActive,
  });
  const online = new OnlinePlayers({
    players,
    members,
    catalog: departments,
    errors,
    events: {
      playerLoaded: (src, member) => loaded.push([src, member]),
      playerUpdated: (src, member, previous) => updated.push([src, member, previous]),
    },
  });
  return {
    clock,
    lines,
    players,
    cache,
    errors,
    catalog: departments,
    members,
    online,
    loaded,
    updated,
    catalogsLoaded,
  };
}
