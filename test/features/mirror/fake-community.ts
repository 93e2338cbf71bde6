import { MirrorSync } from '../../../src/features/mirror/mirror-sync';
import type { MirrorSyncDeps } from '../../../src/features/mirror/mirror-sync-deps';
import { Schedule } from '../../../src/kernel/schedule';
import { RosterCatalog } from '../../../src/roster/catalog';
import { MemberCache } from '../../../src/roster/member-cache';
import { MemberResolver } from '../../../src/roster/member-resolver';
import { OnlinePlayers } from '../../../src/roster/online-players';
import { PlayerRegistry } from '../../../src/roster/player-registry';
import { RosterErrors } from '../../../src/roster/roster-errors';
import {
  FakeClock,
  type FakeReply,
  type FakeRequest,
  fail,
  fakeRoster,
  license,
  ok,
  recordingLogger,
  testClient,
} from '../../roster/client/fake-roster';

export interface FakeMember {
  id: string;
  gameLicense: string;
  status: string;
  displayName: string;
  createdAt: string;
}

export interface FakeAssignment {
  id: string;
  memberId: string;
  departmentId: string;
  rankId: string;
  isPrimary: boolean;
  callsign: string | null;
  createdAt: string;
}

const RANKS = [
  { id: 'r-chief', departmentId: 'd-lspd', name: 'Chief', position: 1 },
  { id: 'r-off', departmentId: 'd-lspd', name: 'Officer', position: 7 },
  { id: 'r-ff', departmentId: 'd-safr', name: 'Firefighter', position: 4 },
];
const DEPARTMENTS = [
  { id: 'd-lspd', name: 'Los Santos Police Department', shortName: 'LSPD' },
  { id: 'd-safr', name: 'San Andreas Fire Rescue', shortName: 'SAFR' },
];

const MIRROR_PATHS = ['/api/v1/members', '/api/v1/department-assignments'];

/**
 * A roster service on the fake clock: members (every fifth one also in SAFR), their assignments,
 * departments and ranks, with the list conventions the mirror relies on (limit, page, total,
 * has_more, repeated filters, `sort` by `createdAt` either way, `createdAt.after` and `.before`).
 */
export class FakeCommunity {
  readonly members: FakeMember[] = [];
  readonly assignments: FakeAssignment[] = [];
  /** Leave `total` out of list answers (a service that does not count). */
  withoutTotal = false;
  /** Answer these member ids with a record the resource cannot read. */
  readonly unreadable = new Set<string>();
  private next = 0;

  constructor(
    private readonly clock: FakeClock,
    count: number,
  ) {
    for (let i = 0; i < count; i++) this.add();
  }

  /** Adds a member stamped with the clock's time plus their index in ms (distinct stamps). */
  add(status = 'ACTIVE'): FakeMember {
    const i = this.next++;
    const member: FakeMember = {
      id: `m-${i}`,
      gameLicense: license(i + 1),
      status,
      displayName: `Member ${i}`,
      createdAt: new Date(this.clock.now() + i).toISOString(),
    };
    this.members.push(member);
    this.assignments.push({
      id: `a-${i}`,
      memberId: member.id,
      departmentId: 'd-lspd',
      rankId: 'r-off',
      isPrimary: true,
      callsign: `1-A-${i}`,
      createdAt: member.createdAt,
    });
    if (i % 5 === 0)
      this.assignments.push({
        id: `a-${i}-fire`,
        memberId: member.id,
        departmentId: 'd-safr',
        rankId: 'r-ff',
        isPrimary: false,
        callsign: null,
        createdAt: member.createdAt,
      });
    return member;
  }

  remove(id: string): void {
    const at = this.members.findIndex((m) => m.id === id);
    if (at >= 0) this.members.splice(at, 1);
    for (let i = this.assignments.length - 1; i >= 0; i--)
      if (this.assignments[i]!.memberId === id) this.assignments.splice(i, 1);
  }

  handler = (request: FakeRequest): FakeReply => {
    const { query } = request;
    const limit = Math.min(Number(query.get('limit') ?? 25), 100);
    const page = Number(query.get('page') ?? 1);
    switch (request.path) {
      case '/api/v1/whoami':
        return ok({ community: { id: 'c', name: 'C' }, scopes: ['roster:read', 'audit:read'] });
      case '/api/v1/departments':
        return this.paged(DEPARTMENTS, page, limit);
      case '/api/v1/ranks':
        return this.paged(RANKS, page, limit);
      case '/api/v1/members': {
        const licenses = new Set(query.getAll('gameLicense').map((l) => l.toLowerCase()));
        const rows = inOrder(this.members, query)
          .filter((m) => licenses.size === 0 || licenses.has(m.gameLicense))
          .map((m) => (this.unreadable.has(m.id) ? { id: m.id, status: 7 } : m));
        return this.paged(rows, page, limit);
      }
      case '/api/v1/department-assignments': {
        const ids = new Set(query.getAll('memberId'));
        const rank = query.get('include') === 'rank';
        const rows = inOrder(this.assignments, query)
          .filter((a) => ids.size === 0 || ids.has(a.memberId))
          .map((a) => (rank ? { ...a, rank: RANKS.find((r) => r.id === a.rankId) } : a));
        return this.paged(rows, page, limit);
      }
      default:
        return fail(404, 'not_found', `no ${request.path}`);
    }
  };

  private paged(rows: unknown[], page: number, limit: number): FakeReply {
    const total = rows.length;
    const totalPages = Math.ceil(total / limit);
    const pagination = { page, limit, total_pages: totalPages, has_more: page < totalPages };
    return ok(rows.slice((page - 1) * limit, page * limit), {
      pagination: this.withoutTotal ? pagination : { ...pagination, total },
    });
  }
}

/** Records within `createdAt.after` / `createdAt.before` (exclusive), by `createdAt` (or `-createdAt`) when asked. */
function inOrder<T extends { createdAt: string }>(records: readonly T[], query: URLSearchParams): T[] {
  const after = query.get('createdAt.after');
  const before = query.get('createdAt.before');
  const rows = records.filter(
    (r) =>
      (after === null || Date.parse(r.createdAt) > Date.parse(after)) &&
      (before === null || Date.parse(r.createdAt) < Date.parse(before)),
  );
  const sort = query.get('sort');
  if (sort === 'createdAt' || sort === '-createdAt') {
    const direction = sort === 'createdAt' ? 1 : -1;
    rows.sort((a, b) => direction * (Date.parse(a.createdAt) - Date.parse(b.createdAt)));
  }
  return rows;
}

export interface RigOptions {
  members?: number;
  perMinute?: number;
  maxEntries?: number;
  passMs?: number;
  resyncMs?: number;
}

/**
 * The roster client, the roster core (catalog, member resolver, online players) and the mirror over a fake community, all on one fake clock. `shared`:
 * the clock and community of an earlier rig (the same server restarted).
 */
export function mirrorRig(options: RigOptions = {}, shared?: { clock: FakeClock; community: FakeCommunity }) {
  const clock = shared?.clock ?? new FakeClock();
  const community = shared?.community ?? new FakeCommunity(clock, options.members ?? 250);
  // Through the property, so a test can wrap the handler after the rig is built.
  const { agent, requests } = fakeRoster(clock, (request) => community.handler(request));
  const { api, lines } = testClient(clock, agent, { perMinute: options.perMinute ?? 120 });
  const cache = new MemberCache({
    maxEntries: 100_000,
    ttlMs: 600_000,
    negativeTtlMs: 60_000,
    now: () => clock.now(),
  });
  const { logger: serviceLogger } = recordingLogger();
  const players = new PlayerRegistry();
  const errors = new RosterErrors(clock, serviceLogger);
  const catalog = new RosterCatalog({ source: api, clock, errors });
  const members = new MemberResolver({ source: api, cache, catalog, errors });
  const events = { playerLoaded() {}, playerUpdated() {} };
  const online = new OnlinePlayers({ players, members, catalog, events, errors });
  const { logger, lines: mirrorLines } = recordingLogger();
  const schedule = new Schedule(clock, () => 0.5);
  const deps: MirrorSyncDeps = {
    source: api,
    members,
    online,
    schedule,
    clock,
    logger,
    maxEntries: options.maxEntries ?? 50_000,
    passMs: options.passMs ?? 60_000,
    resyncMs: options.resyncMs ?? 360 * 60_000,
  };
  const sync = new MirrorSync(deps);
  /** Requests the mirror itself sent (list reads without a license filter). */
  const mirrorRequests = () =>
    requests.filter(
      (r) => MIRROR_PATHS.includes(r.path) && !r.query.has('gameLicense') && r.query.has('page'),
    );
  const close = async () => {
    sync.stop();
    schedule.stop();
    await api.close();
  };
  return {
    clock,
    community,
    requests,
    mirrorRequests,
    api,
    lines,
    mirrorLines,
    cache,
    players,
    catalog,
    members,
    online,
    sync,
    close,
  };
}

/** Advances the fake clock a second at a time until `done()` holds (at most `maxMs`). */
export async function until(clock: FakeClock, done: () => boolean, maxMs = 3_600_000): Promise<void> {
  for (let elapsed = 0; !done(); elapsed += 1000) {
    if (elapsed > maxMs) throw new Error(`not done after ${maxMs} ms of fake time`);
    await clock.advance(1000);
  }
}

/**
 * An audit feed as the mirror follows it, reaching the end of the log at every read while
 * `inStep()` says so: what keeps the mirror answering joins between full reads.
 */
export function followedFeed(r: ReturnType<typeof mirrorRig>, inStep: () => boolean = () => true) {
  let caughtUpAt = r.clock.now();
  const feed = {
    state: () => {
      if (inStep()) caughtUpAt = r.clock.now();
      return { running: true, caughtUpAt, gaps: 0, lastGap: null, skew: null };
    },
    position: () => null,
    resumeFrom() {},
    poll: async () => ({ entries: 0, members: 0, catalog: false, behind: false }),
    unreadMembers: 0,
  };
  return feed as unknown as Parameters<ReturnType<typeof mirrorRig>['sync']['follow']>[0];
}
