import { randomBytes } from 'node:crypto';
import {
  BUDGET_DAY_MS,
  BUDGET_MINUTE_MS,
  PACE_MINUTE_MS,
  PACE_WINDOW_MS,
  type ServerPace,
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
} from '../share-store';
import {
  factRow,
  factText,
  type MemberColumns,
  memberRow,
  pageSize,
  type StateColumns,
  stateRow,
} from '../store-rows';
import type { OxmysqlCalls, OxTransaction, OxValues } from './oxmysql-calls';
import { CREATE_SCHEMA_TABLE, type SchemaStep, SHARE_SCHEMA } from './store-schema';
import * as sql from './store-sql';
import { writeStatements } from './store-writes';

export interface OxmysqlShareStoreOptions<R, A> {
  calls: OxmysqlCalls;
  /** `shareKeyHash` of the API key: the only name of the key the store ever sees. */
  keyHash: string;
  schemas: ShareSchemas<R, A>;
  /** The tables' history (a test gives a longer one to see an older schema upgraded). */
  schema?: readonly SchemaStep[];
}

/** Minute windows kept an hour, day windows two days, short windows two minutes, write notes an hour. */
const MINUTE_WINDOWS_KEPT_MS = 3_600_000;
const PACE_WINDOWS_KEPT_MS = 120_000;
const DAY_WINDOWS_KEPT_MS = 2 * BUDGET_DAY_MS;
const WRITES_KEPT_MS = 3_600_000;
/** Old windows and write notes are deleted with every this many counts and writes. */
const SWEEP_EVERY = 100;

/** The shared roster in the community's database, through oxmysql's exports. */
export class OxmysqlShareStore<R, A> implements ShareStore<R, A> {
  private readonly calls: OxmysqlCalls;
  private readonly keyHash: string;
  private readonly schemas: ShareSchemas<R, A>;
  private readonly schema: readonly SchemaStep[];
  private untilSweep = 0;
  private untilPaceSweep = 0;

  constructor(options: OxmysqlShareStoreOptions<R, A>) {
    this.calls = options.calls;
    this.keyHash = options.keyHash;
    this.schemas = options.schemas;
    this.schema = options.schema ?? SHARE_SCHEMA;
  }

  /** Bounded statement by statement (a first start creates several tables), not as a whole. */
  async migrate(): Promise<void> {
    await this.calls.query(CREATE_SCHEMA_TABLE, []);
    await this.calls.query(sql.SCHEMA_ROW, []);
    const stored = await this.rows(sql.SCHEMA_VERSION, []);
    const at = Number(stored[0]?.version ?? 0);
    const latest = this.schema[this.schema.length - 1]?.version ?? 0;
    if (!Number.isInteger(at) || at > latest) {
      throw new ShareStoreError(
        'schema',
        `The shared tables are at version ${String(stored[0]?.version)}, newer than this release's ${latest}: update the resource on this server.`,
      );
    }
    for (const step of this.schema) {
      if (step.version <= at) continue;
      for (const statement of step.statements) await this.calls.query(statement, []);
      await this.calls.query(sql.SCHEMA_STEP_DONE, [step.version, step.version]);
    }
    await this.calls.query(sql.STATE_ROW, [this.keyHash]);
  }

  state(): Promise<SharedState<A> | null> {
    return this.calls.within(() => this.readState());
  }

  private async readState(): Promise<SharedState<A> | null> {
    const [row] = await this.rows(sql.STATE, [this.keyHash]);
    return row ? stateRow(row as unknown as StateColumns, this.schemas) : null;
  }

  lease(server: string, ms: number): Promise<boolean> {
    return this.calls.within(() => this.takeLease(server, ms));
  }

  private async takeLease(server: string, ms: number): Promise<boolean> {
    await this.calls.query(sql.LEASE, [server, Math.round(ms), this.keyHash, server]);
    let state = await this.readState();
    if (!state) {
      // Its row went (an owner cleaning tables by hand): made again, then the lease is free.
      await this.calls.query(sql.STATE_ROW, [this.keyHash]);
      await this.calls.query(sql.LEASE, [server, Math.round(ms), this.keyHash, server]);
      state = await this.readState();
    }
    return state?.reader === server && state.leaseUntil > state.now;
  }

  async release(server: string): Promise<void> {
    await this.calls.query(sql.RELEASE, [this.keyHash, server]);
  }

  publish(server: string, change: SharedChange<R, A>): Promise<number | null> {
    return this.calls.within(() => this.write(change, server));
  }

  async writeThrough(change: SharedMemberChange<R>): Promise<number> {
    const version = await this.calls.within(() => this.write(change, null));
    if (version === null)
      throw new ShareStoreError('unreadable', 'The write went through but its version was not found.');
    return version;
  }

  async membersSince(
    after: SharedCursor,
    limit: number,
    upTo = Number.MAX_SAFE_INTEGER,
  ): Promise<SharedPage<R>> {
    const size = pageSize(limit);
    const found = await this.rows(sql.MEMBERS_SINCE, [
      this.keyHash,
      after.version,
      after.version,
      after.memberId,
      upTo,
      size,
    ]);
    const page: SharedPage<R> = { rows: [], unreadable: 0, next: after, done: found.length < size };
    for (const columns of found) {
      const row = memberRow(columns as unknown as MemberColumns, this.schemas);
      if (row) page.rows.push(row);
      else page.unreadable++;
      const version = Number(columns.version);
      if (typeof columns.member_id === 'string' && Number.isSafeInteger(version)) {
        page.next = { version, memberId: columns.member_id };
      }
    }
    return page;
  }

  count(requests: number): Promise<SharedBudget> {
    return this.calls.within(() => this.countRequests(requests));
  }

  private async countRequests(requests: number): Promise<SharedBudget> {
    const added = Math.max(0, Math.round(requests));
    const counted = (period: 'm' | 'd', ms: number) =>
      this.calls.query(sql.countWindow(period, ms), [this.keyHash, added]).then((header) => {
        const insertId = Number((header as { insertId?: unknown } | null)?.insertId ?? Number.NaN);
        if (!Number.isSafeInteger(insertId))
          throw new ShareStoreError('unreadable', 'The budget count was not answered.');
        return insertId === 0 ? added : insertId;
      });
    const [minute, day] = await Promise.all([
      counted('m', BUDGET_MINUTE_MS),
      counted('d', BUDGET_DAY_MS),
      this.sweepNowAndThen(),
    ]);
    return { minute, day };
  }

  async budget(): Promise<SharedBudget> {
    const rows = await this.rows(sql.budgetNow(BUDGET_MINUTE_MS, BUDGET_DAY_MS), [this.keyHash]);
    const of = (period: string) => Number(rows.find((row) => row.period === period)?.requests ?? 0) || 0;
    return { minute: of('m'), day: of('d') };
  }

  pace(server: string, requests: number): Promise<SharedPace> {
    return this.calls.within(() => this.paceOf(server, requests));
  }

  private async paceOf(server: string, requests: number): Promise<SharedPace> {
    const added = Math.max(0, Math.round(requests));
    if (added > 0) await this.calls.query(sql.paceAdd(PACE_WINDOW_MS), [this.keyHash, server, added]);
    const [rows] = await Promise.all([
      this.rows(sql.paceRead(PACE_MINUTE_MS), [this.keyHash]),
      this.sweepPace(),
    ]);
    const servers = new Map<string, ServerPace>();
    for (const row of rows) {
      const requests = Number(row.requests);
      const idleMs = Math.max(0, Number(row.idle));
      if (
        typeof row.server === 'string' &&
        Number.isSafeInteger(requests) &&
        requests > 0 &&
        Number.isFinite(idleMs)
      )
        servers.set(row.server, { requests, idleMs });
    }
    return servers;
  }

  async fact(name: string): Promise<SharedFact | null> {
    const [row] = await this.rows(sql.FACT, [this.keyHash, name]);
    return row ? factRow(row.value, row.age) : null;
  }

  async putFact(name: string, value: unknown): Promise<void> {
    const text = factText(value);
    if (text !== null) await this.calls.query(sql.PUT_FACT, [this.keyHash, name, text]);
  }

  /** One transaction: the version claimed, the members written under it, the version noted. */
  private async write(change: SharedChange<R, A>, reader: string | null): Promise<number | null> {
    const token = randomBytes(16).toString('hex');
    const statements = writeStatements(this.keyHash, token, change, reader);
    await this.calls.transaction(statements as OxTransaction);
    const [[written]] = await Promise.all([this.rows(sql.WRITTEN_VERSION, [token]), this.sweepNowAndThen()]);
    if (!written) return null;
    const version = Number(written.version);
    if (!Number.isSafeInteger(version))
      throw new ShareStoreError('unreadable', 'A written version is not a number.');
    return version;
  }

  /** Short windows long past, deleted with every `SWEEP_EVERY` reads of them. */
  private async sweepPace(): Promise<void> {
    if (this.untilPaceSweep-- > 0) return;
    this.untilPaceSweep = SWEEP_EVERY;
    await this.calls.query(sql.SWEEP_PACE, [this.keyHash, PACE_WINDOWS_KEPT_MS]);
  }

  private async sweepNowAndThen(): Promise<void> {
    if (this.untilSweep-- > 0) return;
    this.untilSweep = SWEEP_EVERY;
    await Promise.all([
      this.calls.query(sql.SWEEP_BUDGET, [this.keyHash, MINUTE_WINDOWS_KEPT_MS, DAY_WINDOWS_KEPT_MS]),
      this.calls.query(sql.SWEEP_WRITES, [this.keyHash, WRITES_KEPT_MS]),
    ]);
  }

  private async rows(statement: string, values: OxValues): Promise<Record<string, unknown>[]> {
    const answer = await this.calls.query(statement, values);
    if (!Array.isArray(answer)) throw new ShareStoreError('unreadable', 'The database did not answer rows.');
    return answer as Record<string, unknown>[];
  }
}
