import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '../../platform/ports';
import type { AuditPosition } from '../audit/audit-feed';
import type { SharedMirror } from '../mirror/handle';
import type { MirroredMember } from '../mirror/mirrored-member';
import type { SharedStart } from '../mirror/shared-copy';
import { PendingChanges } from './pending-changes';
import {
  BUDGET_DAY_MS,
  BUDGET_MINUTE_MS,
  SHARED_PAGE_LIMIT,
  SHARED_START,
  type SharedBudget,
  type SharedChange,
  type SharedCursor,
  type SharedState,
  type ShareStore,
} from './share-store';
import { memberOf, type SharedRecord } from './shared-record';

/** How long the reader's lease runs, and how often it renews it. */
export const LEASE_MS = 30_000;
export const RENEW_MS = 10_000;
/** How often what changed is written, and the database read for what the others wrote. */
export const WRITE_MS = 500;
export const FOLLOW_MS = 1_000;
/** While sharing is off, how often the database is asked whether it answers again. */
export const RETRY_MS = 5_000;
/**
 * A follower's copy answers joins only while its last read of the database is this recent: a
 * database that stops answering stops the copy deciding before sharing is even turned off.
 */
export const COPY_FRESH_MS = 3_000;
/** Pages of members read at most per follow (50,000 members): the rest at the next. */
const MAX_PAGES = 100;

export type ShareRole = 'starting' | 'reader' | 'follower' | 'alone';

/**
 * How a lease holder is written: the server's name and this run's own mark, so two servers given
 * one name (the same `sv_projectName`) never both take the lease for one.
 */
const RUN_MARK = '~';

/** The server's name of a lease holder, as the owner named it. */
function readerName(holder: string | null): string | null {
  if (holder === null) return null;
  const mark = holder.lastIndexOf(RUN_MARK);
  return mark > 0 ? holder.slice(0, mark) : holder;
}

export type Store = ShareStore<SharedRecord, AuditPosition>;

export interface SharedRosterDeps {
  store: Store;
  mirror: SharedMirror;
  /** How this server is named in the shared tables. */
  server: string;
  clock: Clock;
  logger: Logger;
  /** This server's requests to the service since the last call (added to the shared counts). */
  requestsSent?: () => number;
  /**
   * `refresh.auditSeconds` in ms: the reader writes each time its audit feed reaches the end of the
   * log, and a copy whose reader has not written for two of these (and a few seconds) stops
   * deciding, as the reader's own mirror does. Absent: not judged (tests of other parts).
   */
  auditMs?: number;
}

/** What a reader's write may lag its audit read by, beyond two audit intervals. */
const HEARTBEAT_SLACK_MS = 5_000;

/** What `roster status`, `roster doctor` and the panel say about sharing. */
export interface ShareReport {
  on: boolean;
  role: ShareRole;
  server: string;
  /** Why sharing is off for this server; null while on. */
  off: string | null;
  reader: string | null;
  /** Milliseconds the reader's lease still runs (as of the last read); null: none runs. */
  leaseLeftMs: number | null;
  /** The shared roster's version, and this server's copy's. */
  version: number | null;
  held: number;
  /** Versions the copy is behind; when it last read the database (this server's time). */
  lag: number | null;
  syncedAt: number | null;
  complete: boolean;
  budget: SharedBudget | null;
  pending: number;
}

/**
 * One roster for every server on the key, through the database: one server (the reader, by a
 * lease) reads the service and writes what its mirror changes, the audit position and whether it
 * is complete; the others follow the database into their own mirror and read nothing themselves.
 * What any server learns from the service (a stranger, a re-read) is written through. A database
 * that fails or is slow turns sharing off for this server, which then reads the roster alone from
 * what it holds; it asks again every few seconds and joins back in when the database answers.
 */
export class SharedRoster {
  private role: ShareRole = 'starting';
  private off: string | null = null;
  private state: SharedState<AuditPosition> | null = null;
  private cursor: SharedCursor = SHARED_START;
  private syncedAt: number | null = null;
  /** The copy holds every row up to the state's version (the last follow read every page). */
  private caughtUp = false;
  /** The shared roster's version this server's copy holds everything of. */
  private copyVersion = 0;
  private readonly pending = new PendingChanges();
  private published = Published.none();
  /** The key's counts, every server's, as last read (this minute, today). */
  private budget: SharedBudget | null = null;
  /** This server's own part of them, by its minute and day. */
  private readonly own = { minute: -1, inMinute: 0, day: -1, inDay: 0 };
  private lastFollow = Number.NEGATIVE_INFINITY;
  private lastRenew = Number.NEGATIVE_INFINITY;
  private lastTry = Number.NEGATIVE_INFINITY;
  private unreadableSaid = false;
  private stopped = false;
  /** Who holds the lease when this server does: its name and this run's mark. */
  private readonly holder: string;

  constructor(private readonly deps: SharedRosterDeps) {
    this.holder = `${deps.server}${RUN_MARK}${randomUUID().slice(0, 8)}`;
    // Until the database says who reads, this server reads nothing of its own.
    deps.mirror.followShared(() => this.copyInStep());
    deps.mirror.onChange((put, removed) => this.pending.note(put, removed, deps.clock.now()));
  }

  /** Sharing cannot start (no oxmysql): the server runs alone from the start. */
  alone(why: string): void {
    this.off = why;
    this.role = 'alone';
    this.deps.mirror.lead(null);
  }

  /**
   * One step, every `WRITE_MS`: what changed is written; every `FOLLOW_MS` the database is read
   * (and the lease taken when it ran out); every `RENEW_MS` the reader renews. Never rejects.
   */
  async tick(): Promise<void> {
    if (this.stopped) return;
    const now = this.deps.clock.now();
    try {
      if (this.role === 'starting' || this.off !== null) {
        if (this.role === 'alone' && now - this.lastTry < RETRY_MS) return;
        this.lastTry = now;
        await this.connect();
        return;
      }
      await this.write();
      if (now - this.lastFollow >= FOLLOW_MS) {
        this.lastFollow = now;
        await this.follow();
        await this.count();
      }
      if (this.role === 'reader' && now - this.lastRenew >= RENEW_MS) await this.renew();
    } catch (error) {
      this.turnOff(error);
    }
  }

  /** The resource stops: the lease is given up so another server takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.role === 'reader' && this.off === null)
      await this.deps.store.release(this.holder).catch(() => {});
  }

  report(): ShareReport {
    const { state } = this;
    const sinceRead = this.syncedAt === null ? 0 : this.deps.clock.now() - this.syncedAt;
    const leaseLeft = state && state.reader !== null ? state.leaseUntil - state.now - sinceRead : null;
    return {
      on: this.off === null && this.role !== 'starting',
      role: this.role,
      server: this.deps.server,
      off: this.off,
      reader: readerName(state?.reader ?? null),
      leaseLeftMs: leaseLeft !== null && leaseLeft > 0 ? leaseLeft : null,
      version: state?.version ?? null,
      held: this.deps.mirror.report().held,
      lag: state ? Math.max(0, state.version - this.copyVersion) : null,
      syncedAt: this.syncedAt,
      complete: state?.complete ?? false,
      budget: this.budget,
      pending: this.pending.size,
    };
  }

  /**
   * Whether a follower's copy may decide joins: the reader said its roster is complete, its lease
   * still runs, and the database was read just now.
   */
  private copyInStep(): boolean {
    const { state, syncedAt } = this;
    if (this.off !== null || state === null || syncedAt === null || !state.complete) return false;
    const since = this.deps.clock.now() - syncedAt;
    if (since >= COPY_FRESH_MS || state.leaseUntil - state.now <= since) return false;
    const { auditMs } = this.deps;
    if (auditMs === undefined) return true;
    return state.now - state.updatedAt + since < auditMs * 2 + HEARTBEAT_SLACK_MS;
  }

  /** At start and after sharing was off: the tables, the copy, then the lease if it is free. */
  private async connect(): Promise<void> {
    const { store, logger } = this.deps;
    await store.migrate();
    if (this.role === 'alone') {
      // Its mirror read on alone meanwhile: it goes on reading if nobody else does, else it
      // follows again from the whole shared roster (rows written meanwhile were not applied).
      this.state = await store.state();
      if (!(await this.takeLeaseIfFree())) {
        this.cursor = SHARED_START;
        this.becomeFollower();
      }
      this.off = null;
      logger.info('the database answers again: the roster is shared with the other servers again.');
    }
    // A server starting follows first: it holds the shared copy before it may take the lease,
    // so a reader that restarts goes on from where it left the audit log, not from nothing.
    await this.follow();
    if (this.role === 'starting' && !(await this.takeLeaseIfFree())) this.becomeFollower();
    this.off = null;
    await this.count();
  }

  /** Reads the state and the rows above the copy's version into the mirror; takes over a lapsed lease. */
  private async follow(): Promise<void> {
    const { store, mirror } = this.deps;
    const state = await store.state();
    if (state === null) throw new Error('the shared state row is missing');
    const whole = this.cursor.version === 0 && this.cursor.memberId === '';
    const put: MirroredMember[] = [];
    const removed: string[] = [];
    let unreadable = 0;
    let done = false;
    let cursor = this.cursor;
    for (let page = 0; page < MAX_PAGES && !done; page++) {
      const read = await store.membersSince(cursor, SHARED_PAGE_LIMIT);
      for (const row of read.rows) {
        if (row.record === null) removed.push(row.memberId);
        else put.push(memberOf(row.record, row.readAt));
      }
      unreadable += read.unreadable;
      cursor = read.next;
      done = read.done;
    }
    this.state = state;
    this.cursor = cursor;
    this.syncedAt = this.deps.clock.now();
    // The state was read first: every row of a version up to its own was committed before, and read.
    this.caughtUp = done;
    this.copyVersion = done ? Math.max(state.version, cursor.version) : cursor.version;
    if (unreadable > 0 && !this.unreadableSaid) {
      this.unreadableSaid = true;
      this.deps.logger.warn(
        `${unreadable} member row(s) in the shared roster could not be read and were ignored; those members are looked up when they join.`,
      );
    }
    // The reader takes what the others wrote (its own writes come back too: not newer, skipped).
    mirror.applyShared(put, removed, whole && done);
    if (state.complete && this.caughtUp && mirror.followingShared) mirror.sharedComplete(state.fullReadAt);
    if (this.role === 'follower' && this.leaseLapsed()) await this.takeLeaseIfFree();
  }

  private leaseLapsed(): boolean {
    const { state } = this;
    return state !== null && (state.reader === null || state.leaseUntil <= state.now);
  }

  /** Takes the lease when nobody's runs (or this server's does): then this server reads. */
  private async takeLeaseIfFree(): Promise<boolean> {
    const { state } = this;
    if (state === null || (!this.leaseLapsed() && state.reader !== this.holder)) return false;
    if (!(await this.deps.store.lease(this.holder, LEASE_MS))) return false;
    this.lastRenew = this.deps.clock.now();
    this.becomeReader();
    return true;
  }

  private becomeReader(): void {
    const was = this.role;
    if (was === 'reader') return;
    this.role = 'reader';
    this.published = Published.none();
    const state = this.state;
    // From where the last reader left the log, when this copy holds every row it wrote.
    const from: SharedStart | null =
      state && this.caughtUp
        ? { audit: state.auditPosition, fullReadAt: state.fullReadAt, complete: state.complete }
        : null;
    this.deps.mirror.lead(from);
    const before =
      state?.reader && state.reader !== this.holder ? `${readerName(state.reader)}'s lease ran out` : null;
    this.deps.logger.info(
      `sharing the roster through the database: this server reads it${before ? ` (${before})` : ''}, the others follow.`,
    );
  }

  private becomeFollower(): void {
    if (this.role === 'follower') return;
    const was = this.role;
    this.role = 'follower';
    this.deps.mirror.followShared(() => this.copyInStep());
    this.deps.logger.info(
      `sharing the roster through the database: ${readerName(this.state?.reader ?? null) ?? 'another server'} reads it${was === 'reader' ? ' now' : ''}, this server follows.`,
    );
  }

  /** The reader renews its lease; one it lost (it ran out meanwhile, another took it) makes it a follower. */
  private async renew(): Promise<void> {
    this.lastRenew = this.deps.clock.now();
    if (!(await this.deps.store.lease(this.holder, LEASE_MS))) this.becomeFollower();
  }

  /**
   * What changed, written: the reader publishes it with its audit position and whether its roster
   * is complete (both only once everything its mirror changed before is written: the position
   * never runs ahead of the members); any other server writes through what it learned.
   */
  private async write(): Promise<void> {
    const { store, mirror } = this.deps;
    const server = this.holder;
    if (this.role !== 'reader') {
      if (this.pending.size === 0 || this.role !== 'follower') return;
      const change = this.pending.take(SHARED_PAGE_LIMIT);
      try {
        await store.writeThrough({ members: change.members ?? [], removed: change.removed ?? [] });
      } catch (error) {
        this.pending.restore(change);
        throw error;
      }
      return;
    }
    const members = this.pending.take(SHARED_PAGE_LIMIT);
    const change: SharedChange<SharedRecord, AuditPosition> = {};
    if (members.taken > 0) Object.assign(change, { members: members.members, removed: members.removed });
    let auditReadAt: number | null = null;
    if (this.pending.size === 0) {
      const report = mirror.report();
      const audit = mirror.auditPosition();
      const complete = report.deciding;
      const text = audit === null ? null : JSON.stringify(audit);
      if (text !== null && text !== this.published.audit) change.auditPosition = audit;
      if (complete !== this.published.complete) change.complete = complete;
      if (report.lastFullReadAt !== this.published.fullReadAt) change.fullReadAt = report.lastFullReadAt;
      // The audit log read to its end again: written even when nothing moved, so the others know
      // the roster is still being kept (a quiet log moves no position).
      if (report.auditReadAt !== null && report.auditReadAt !== this.published.auditReadAt) {
        change.complete = complete;
        auditReadAt = report.auditReadAt;
      }
      const community = mirror.communityHeld;
      if (community !== null && community !== this.state?.community) change.community = community;
    }
    // Nothing changed: nothing written (a write raises the version the others read above).
    if (Object.keys(change).length === 0) return;
    let version: number | null;
    try {
      version = await store.publish(server, change);
    } catch (error) {
      this.pending.restore(members);
      throw error;
    }
    if (version === null) {
      this.pending.restore(members);
      this.becomeFollower();
      return;
    }
    if (change.auditPosition !== undefined) this.published.audit = JSON.stringify(change.auditPosition);
    if (change.complete !== undefined) this.published.complete = change.complete;
    if (change.fullReadAt !== undefined) this.published.fullReadAt = change.fullReadAt;
    if (auditReadAt !== null) this.published.auditReadAt = auditReadAt;
    if (this.state && change.community !== undefined)
      this.state = { ...this.state, community: change.community };
  }

  /** Adds this server's requests to the key's shared counts and reads the fleet's. */
  private async count(): Promise<void> {
    const sent = this.deps.requestsSent?.() ?? 0;
    const now = this.deps.clock.now();
    const minute = Math.floor(now / BUDGET_MINUTE_MS);
    const day = Math.floor(now / BUDGET_DAY_MS);
    if (minute !== this.own.minute) Object.assign(this.own, { minute, inMinute: 0 });
    if (day !== this.own.day) Object.assign(this.own, { day, inDay: 0 });
    this.own.inMinute += sent;
    this.own.inDay += sent;
    // Nothing sent: the counts are read, not written (one statement instead of two).
    this.budget = sent > 0 ? await this.deps.store.count(sent) : await this.deps.store.budget();
  }

  /**
   * What the other servers spent of the key (this minute, today): the shared counts less this
   * server's own part. Null while sharing is off or the counts are not current: the rate limiter
   * then keeps this server to its own share, as without sharing.
   */
  othersUsage(): SharedBudget | null {
    const { budget, syncedAt } = this;
    if (this.off !== null || budget === null || syncedAt === null) return null;
    const now = this.deps.clock.now();
    if (now - syncedAt >= COPY_FRESH_MS) return null;
    const sameMinute = Math.floor(now / BUDGET_MINUTE_MS) === this.own.minute;
    const sameDay = Math.floor(now / BUDGET_DAY_MS) === this.own.day;
    return {
      minute: sameMinute ? Math.max(0, budget.minute - this.own.inMinute) : 0,
      day: sameDay ? Math.max(0, budget.day - this.own.inDay) : 0,
    };
  }

  /** A failing or slow database: this server goes on alone, from what it holds, until it answers again. */
  private turnOff(error: unknown): void {
    const first = this.off === null;
    this.off = error instanceof Error ? error.message : String(error);
    if (!first) return;
    const was = this.role;
    this.role = 'alone';
    this.lastTry = this.deps.clock.now();
    this.deps.logger.warn(
      `the shared roster's database did not answer (${this.off}): this server reads the roster alone until it does, from what it holds.`,
    );
    const state = this.state;
    if (was !== 'reader')
      this.deps.mirror.lead(
        state && this.caughtUp
          ? { audit: state.auditPosition, fullReadAt: state.fullReadAt, complete: state.complete }
          : null,
      );
  }
}

/** What the reader last wrote of its state, so it writes only what moved. */
class Published {
  audit: string | null = null;
  complete: boolean | null = null;
  fullReadAt: number | null = null;
  /** Its audit feed's last read to the end of the log, when last written (this server's time). */
  auditReadAt: number | null = null;

  static none(): Published {
    return new Published();
  }
}
