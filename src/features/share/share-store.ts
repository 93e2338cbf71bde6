import type { z } from 'zod';

/**
 * The shared roster as the database holds it for one API key: who reads the service, how far,
 * and the roster's version. Times compared between servers (`leaseUntil`, `now`) are the
 * database's clock, in milliseconds since the epoch.
 */
export interface SharedState<A> {
  /** The server holding the lease: the one that reads the service. Null when none. */
  reader: string | null;
  /** When the reader's lease runs out (database time); 0 when never taken. */
  leaseUntil: number;
  /** The roster's version: raised by every write, so a follower asks for the rows above its own. */
  version: number;
  /** The community whose roster it is (`communityKey`), as the reader set it; null when not known. */
  community: string | null;
  /** Where the reader had handled the audit log; null when none, or when it does not parse. */
  auditPosition: A | null;
  /** The reader's time when its last full read completed; null when none did. */
  fullReadAt: number | null;
  /** Whether the shared members are the whole roster (a full read completed and nothing broke it since). */
  complete: boolean;
  /** The database's time of the last write (0 before any). */
  updatedAt: number;
  /** The database's time when this was read: what `leaseUntil` is judged against. */
  now: number;
}

/** A member as a server last read them from the service. */
export interface SharedMemberWrite<R> {
  memberId: string;
  license: string;
  record: R;
  /** The writer's time the record was read: of two writes of one member, the newer read stays. */
  readAt: number;
}

/** A member no longer on the roster (or no longer held), as of the writer's `readAt`. */
export interface SharedRemoval {
  memberId: string;
  readAt: number;
}

/** What any server learned about members: written under one new version. */
export interface SharedMemberChange<R> {
  members?: readonly SharedMemberWrite<R>[];
  removed?: readonly SharedRemoval[];
}

/** The reader's write: members, and the state it moved with them (absent fields stay as they are). */
export interface SharedChange<R, A> extends SharedMemberChange<R> {
  auditPosition?: A | null;
  fullReadAt?: number | null;
  complete?: boolean;
  community?: string | null;
}

/** A member row above a version. `record` and `license` are null for a member no longer held. */
export interface SharedMemberRow<R> {
  memberId: string;
  license: string | null;
  record: R | null;
  readAt: number;
  version: number;
}

/** Where a follower stands in the shared members: rows after (version, memberId) are new to it. */
export interface SharedCursor {
  version: number;
  /** The last member id read at `version`; '' for none (every row of `version` is then read). */
  memberId: string;
}

/** Where a follower with nothing yet starts. */
export const SHARED_START: SharedCursor = Object.freeze({ version: 0, memberId: '' });

/** One page of `membersSince`. */
export interface SharedPage<R> {
  /** Rows in (version, memberId) order, those that parse. */
  rows: SharedMemberRow<R>[];
  /** Rows skipped because they do not parse (bad JSON, wrong shape). */
  unreadable: number;
  /** Where the next page starts: past the last row seen, readable or not (the cursor given when none). */
  next: SharedCursor;
  /** Fewer rows than the limit came: nothing more above `next` for now. */
  done: boolean;
}

/**
 * The most rows a page should ask for: oxmysql prints a warning for every result of 1,000 rows or
 * more, and a page is read in one statement.
 */
export const SHARED_PAGE_LIMIT = 500;

/**
 * Something a server read from the service that every server on the key needs at start (who the
 * key belongs to, the departments and ranks): its JSON as written, and how long ago it was written
 * on the database's clock.
 */
export interface SharedFact {
  value: unknown;
  ageMs: number;
}

/** A fact larger than this is not shared (a catalog of 2,000 departments and ranks is ~400 KB). */
export const SHARED_FACT_MOST_BYTES = 4_000_000;

/** The key's shared request counts in the database's current minute and UTC day. */
export interface SharedBudget {
  minute: number;
  day: number;
}

/** Each server's requests to the service in the key's last minute, by the server's name. */
export type SharedPace = ReadonlyMap<string, ServerPace>;

export interface ServerPace {
  /** Its requests in the windows of the last minute. */
  requests: number;
  /** Since the start of the last window it sent in (the database's clock). */
  idleMs: number;
}

/**
 * One API key's shared roster in the community's database. Every call either answers within the
 * store's bound (2 s over oxmysql) or rejects with a `ShareStoreError`: a caller never waits on a
 * database that stopped answering.
 */
export interface ShareStore<R, A> {
  /** Creates or upgrades the tables (idempotent, safe for several servers at once) and this key's state row. */
  migrate(): Promise<void>;
  /** This key's state; null when it has no row (before `migrate`). */
  state(): Promise<SharedState<A> | null>;
  /**
   * Takes or renews the lease for `ms`: true when `server` holds it afterwards (it held it, or
   * nobody's lease was running). Judged on the database's clock.
   */
  lease(server: string, ms: number): Promise<boolean>;
  /** Gives the lease up now, if `server` holds it; another server may take it at once. */
  release(server: string): Promise<void>;
  /**
   * The reader's write: members changed, removed ids, the state moved with them, in one
   * transaction under one new version. Null, and nothing written, when `server` does not hold a
   * running lease.
   */
  publish(server: string, change: SharedChange<R, A>): Promise<number | null>;
  /** Any server's write of what it learned (a stranger, a rank change): the version it was written under. */
  writeThrough(change: SharedMemberChange<R>): Promise<number>;
  /**
   * Rows after `after` in (version, memberId) order, at most `limit` (see SHARED_PAGE_LIMIT). A
   * row written later always has a higher version than every row already committed, so a
   * follower moving its cursor to `next` misses nothing. `upTo`: rows of no higher version (the
   * state's, read first): a row above it (a hand edit, a state row made again) is not passed, so it
   * cannot carry the cursor past rows a later write gives that version.
   */
  membersSince(after: SharedCursor, limit: number, upTo?: number): Promise<SharedPage<R>>;
  /** Adds `requests` to this minute's and today's counts (atomic across servers); the counts afterwards. */
  count(requests: number): Promise<SharedBudget>;
  /** This minute's and today's counts. */
  budget(): Promise<SharedBudget>;
  /**
   * Adds `requests` to `server`'s count in the current short window (`PACE_WINDOW_MS`, atomic);
   * answers every server's requests in the last minute (the windows summed, the oldest counted
   * whole, so a minute errs on the long side) and how long since it last sent.
   */
  pace(server: string, requests: number): Promise<SharedPace>;
  /** The fact written under `name`; null when none was, or what was written is not JSON. */
  fact(name: string): Promise<SharedFact | null>;
  /** Writes (or replaces) the fact `name`, read from the service just now. */
  putFact(name: string, value: unknown): Promise<void>;
}

/** How the store reads what it wrote: a record and an audit position are validated like the service's answers. */
export interface ShareSchemas<R, A> {
  record: z.ZodType<R>;
  auditPosition: z.ZodType<A>;
}

export type ShareStoreFailure =
  /** oxmysql is not there to call. */
  | 'unavailable'
  /** The database did not answer within the bound. */
  | 'timeout'
  /** The database answered with an error, or refused a transaction. */
  | 'failed'
  /** The tables are of a newer release than this one. */
  | 'schema'
  /** What the database answered is not what the store asked for. */
  | 'unreadable';

/** A store call that did not do what it was asked; sharing is off for this server until one succeeds. */
export class ShareStoreError extends Error {
  constructor(
    readonly failure: ShareStoreFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ShareStoreError';
  }
}

/** Minute and day windows the budget is counted in (the day is the UTC day, as the key's is). */
export const BUDGET_MINUTE_MS = 60_000;
export const BUDGET_DAY_MS = 86_400_000;
/**
 * Each server's requests are counted in windows this short, so the key's last minute is known as
 * it rolls: summed, the oldest window counted whole, a minute errs by at most a second's requests.
 */
export const PACE_WINDOW_MS = 1_000;
/** The windows summed as the last minute: every window any of whose time is within it. */
export const PACE_MINUTE_MS = 60_000 + PACE_WINDOW_MS;
/** A server that sent within this long is sending now (one at its part of a busy key sends every few seconds). */
export const PACE_RECENT_MS = 10_000;
