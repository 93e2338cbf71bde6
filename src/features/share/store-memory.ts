import type { Clock } from '../../platform/ports';
import { MemoryPaceTable } from './pace-memory';
import {
  BUDGET_DAY_MS,
  BUDGET_MINUTE_MS,
  type SharedBudget,
  type SharedChange,
  type SharedCursor,
  type SharedFact,
  type SharedMemberChange,
  type SharedPace,
  type SharedPage,
  type SharedState,
  type ShareSchemas,
  type ShareStore,
  ShareStoreError,
  type ShareStoreFailure,
} from './share-store';
import {
  compareMemberIds,
  factRow,
  factText,
  isStorableName,
  type MemberColumns,
  memberRow,
  pageSize,
  type StateColumns,
  stateRow,
} from './store-rows';

type StateRecord = Omit<StateColumns, 'now'> & {
  reader: string | null;
  lease_until: number;
  version: number;
};

/** A member row as the table's column types allow: any text in `license` and `record`. */
export interface MemberRecord extends MemberColumns {
  key_hash: string;
  member_id: string;
  license: string | null;
  record: string | null;
  read_at: number;
  version: number;
}

/**
 * The shared tables in memory, for every key at once, as one database holds them: several
 * `MemoryShareStore`s over one `MemoryShareTables` are several servers (or keys) on one database.
 * Its clock stands for the database's.
 */
export class MemoryShareTables {
  readonly states = new Map<string, StateRecord>();
  readonly members: MemberRecord[] = [];
  readonly budget = new Map<
    string,
    { keyHash: string; period: 'm' | 'd'; windowStart: number; requests: number }
  >();
  readonly pace = new MemoryPaceTable();
  /** `roster_share_facts`: by key hash and name, the JSON and when it was written. */
  readonly facts = new Map<string, { value: string; readAt: number }>();
  migrated = false;
  /** While set, every call of every store over these tables rejects with this failure. */
  failing: ShareStoreFailure | null = null;

  constructor(readonly clock: Pick<Clock, 'now'>) {}

  /** A row as anything with the database's password could write it: any column values at all. */
  plantMember(row: MemberRecord): void {
    this.members.push({ ...row });
  }
}

/**
 * The store's semantics in memory for the code above it: the lease judged on the tables' clock,
 * one version per write, the newer `readAt` kept, minute and day windows. Records and audit
 * positions are kept as JSON text and validated on the way out, as the database store does.
 */
export class MemoryShareStore<R, A> implements ShareStore<R, A> {
  constructor(
    private readonly tables: MemoryShareTables,
    private readonly keyHash: string,
    private readonly schemas: ShareSchemas<R, A>,
  ) {}

  async migrate(): Promise<void> {
    this.tables.migrated = true;
    this.ensureState();
  }

  async state(): Promise<SharedState<A> | null> {
    this.check();
    const state = this.tables.states.get(this.keyHash);
    return state ? stateRow({ ...state, now: this.now() }, this.schemas) : null;
  }

  async lease(server: string, ms: number): Promise<boolean> {
    this.check();
    const state = this.ensureState();
    const now = this.now();
    if (state.reader === server || state.lease_until <= now) {
      state.reader = server;
      state.lease_until = now + ms;
    }
    return state.reader === server && state.lease_until > now;
  }

  async release(server: string): Promise<void> {
    this.check();
    const state = this.tables.states.get(this.keyHash);
    if (state?.reader !== server) return;
    state.reader = null;
    state.lease_until = 0;
  }

  async publish(server: string, change: SharedChange<R, A>): Promise<number | null> {
    this.check();
    const state = this.tables.states.get(this.keyHash);
    if (!state || state.reader !== server || state.lease_until <= this.now()) return null;
    const version = this.write(state, change);
    if (change.auditPosition !== undefined) {
      state.audit_position = change.auditPosition === null ? null : JSON.stringify(change.auditPosition);
    }
    if (change.fullReadAt !== undefined) state.full_read_at = change.fullReadAt;
    if (change.complete !== undefined) state.complete = change.complete;
    if (change.community !== undefined) state.community = change.community;
    return version;
  }

  async writeThrough(change: SharedMemberChange<R>): Promise<number> {
    this.check();
    return this.write(this.ensureState(), change);
  }

  async membersSince(
    after: SharedCursor,
    limit: number,
    upTo = Number.MAX_SAFE_INTEGER,
  ): Promise<SharedPage<R>> {
    this.check();
    const size = pageSize(limit);
    const rows = this.tables.members
      .filter((row) => row.key_hash === this.keyHash && isAfter(row, after) && row.version <= upTo)
      .sort(byVersionThenId)
      .slice(0, size);
    const page: SharedPage<R> = { rows: [], unreadable: 0, next: after, done: rows.length < size };
    for (const columns of rows) {
      const row = memberRow(columns, this.schemas);
      if (row) page.rows.push(row);
      else page.unreadable++;
      page.next = { version: columns.version, memberId: columns.member_id };
    }
    return page;
  }

  async count(requests: number): Promise<SharedBudget> {
    this.check();
    const now = this.now();
    this.sweepBudget(now);
    for (const [period, size] of PERIODS) {
      const windowStart = now - (now % size);
      const key = `${this.keyHash}|${period}|${windowStart}`;
      const window = this.tables.budget.get(key) ?? {
        keyHash: this.keyHash,
        period,
        windowStart,
        requests: 0,
      };
      window.requests += Math.max(0, Math.round(requests));
      this.tables.budget.set(key, window);
    }
    return this.budgetAt(now);
  }

  async budget(): Promise<SharedBudget> {
    this.check();
    return this.budgetAt(this.now());
  }

  async pace(server: string, requests: number): Promise<SharedPace> {
    this.check();
    return this.tables.pace.add(this.keyHash, server, requests, this.now());
  }

  async fact(name: string): Promise<SharedFact | null> {
    this.check();
    const row = this.tables.facts.get(`${this.keyHash}|${name}`);
    return row ? factRow(row.value, this.now() - row.readAt) : null;
  }

  async putFact(name: string, value: unknown): Promise<void> {
    this.check();
    const text = factText(value);
    if (text !== null) this.tables.facts.set(`${this.keyHash}|${name}`, { value: text, readAt: this.now() });
  }

  private budgetAt(now: number): SharedBudget {
    const counted = (period: 'm' | 'd', size: number) =>
      this.tables.budget.get(`${this.keyHash}|${period}|${now - (now % size)}`)?.requests ?? 0;
    return { minute: counted('m', BUDGET_MINUTE_MS), day: counted('d', BUDGET_DAY_MS) };
  }

  /** Windows long past are deleted, as the database store does now and then. */
  private sweepBudget(now: number): void {
    for (const [key, window] of this.tables.budget) {
      const keep = window.period === 'm' ? BUDGET_MINUTE_MS * 60 : BUDGET_DAY_MS * 2;
      if (window.windowStart < now - keep) this.tables.budget.delete(key);
    }
  }

  private write(state: StateRecord, change: SharedMemberChange<R>): number {
    state.version += 1;
    state.updated_at = this.now();
    const version = state.version;
    for (const member of change.members ?? []) {
      if (!isStorableName(member.memberId) || !isStorableName(member.license)) continue;
      this.upsert(member.memberId, member.license, JSON.stringify(member.record), member.readAt, version);
    }
    for (const removal of change.removed ?? []) {
      if (!isStorableName(removal.memberId)) continue;
      this.upsert(removal.memberId, null, null, removal.readAt, version);
    }
    return version;
  }

  /** The newer read stays: an older one changes nothing, not even the row's version. */
  private upsert(
    memberId: string,
    license: string | null,
    record: string | null,
    readAt: number,
    version: number,
  ) {
    const row = this.tables.members.find((r) => r.key_hash === this.keyHash && r.member_id === memberId);
    if (!row) {
      this.tables.members.push({
        key_hash: this.keyHash,
        member_id: memberId,
        license,
        record,
        read_at: readAt,
        version,
      });
      return;
    }
    if (readAt < row.read_at) return;
    row.license = license ?? row.license;
    row.record = record;
    row.read_at = readAt;
    row.version = version;
  }

  private ensureState(): StateRecord {
    this.check();
    let state = this.tables.states.get(this.keyHash);
    if (!state) {
      state = {
        reader: null,
        lease_until: 0,
        version: 0,
        community: null,
        audit_position: null,
        full_read_at: null,
        complete: false,
        updated_at: 0,
      };
      this.tables.states.set(this.keyHash, state);
    }
    return state;
  }

  private check(): void {
    if (this.tables.failing)
      throw new ShareStoreError(this.tables.failing, 'The shared tables are set to fail.');
    if (!this.tables.migrated) throw new ShareStoreError('failed', 'The shared tables do not exist yet.');
  }

  private now(): number {
    return this.tables.clock.now();
  }
}

const PERIODS: ReadonlyArray<readonly ['m' | 'd', number]> = [
  ['m', BUDGET_MINUTE_MS],
  ['d', BUDGET_DAY_MS],
];

function isAfter(row: MemberRecord, after: SharedCursor): boolean {
  const version = row.version;
  return (
    version > after.version ||
    (version === after.version && compareMemberIds(row.member_id, after.memberId) > 0)
  );
}

function byVersionThenId(a: MemberRecord, b: MemberRecord): number {
  return a.version - b.version || compareMemberIds(a.member_id, b.member_id);
}
