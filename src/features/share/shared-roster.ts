import type { Clock, Logger } from '../../platform/ports';
import type { AuditPosition } from '../audit/audit-feed';
import type { SharedMirror } from '../mirror/handle';
import { FleetUsage } from './fleet-usage';
import { PendingChanges } from './pending-changes';
import type { ShareReport } from './share-report';
import { leadFrom, leaseLapsed, readerName, runHolder, type ShareRole } from './share-roles';
import { SHARED_START, type SharedBudget, type SharedCursor, type SharedState } from './share-store';
import { FOLLOW_MS, LEASE_MS, RENEW_MS, RETRY_MS, WRITES_PER_STEP } from './share-timing';
import { copyInStep, readShared } from './shared-follow';
import type { Store } from './shared-record';
import { SharedWrites } from './shared-writes';

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
  private readonly writes: SharedWrites;
  private readonly usage: FleetUsage;
  private lastFollow = Number.NEGATIVE_INFINITY;
  private lastRenew = Number.NEGATIVE_INFINITY;
  private lastTry = Number.NEGATIVE_INFINITY;
  private unreadableSaid = false;
  private stopped = false;
  private stepping = false;
  /** Who holds the lease when this server does: its name and this run's mark. */
  private readonly holder: string;
  private nowKnown = () => {};
  /** Settles once this server first knows where it stands: reading, following or alone. */
  private readonly known = new Promise<void>((resolve) => (this.nowKnown = resolve));

  constructor(private readonly deps: SharedRosterDeps) {
    this.holder = runHolder(deps.server);
    this.writes = new SharedWrites(deps.store, deps.mirror, this.pending);
    this.usage = new FleetUsage(deps.store, deps.clock, this.holder);
    // Until the database says who reads, this server reads nothing of its own.
    deps.mirror.followShared(() => this.copyInStep());
    deps.mirror.onChange((put, removed, doubted) =>
      this.pending.note(put, removed, deps.clock.now(), doubted),
    );
  }

  /** Sharing cannot start (no oxmysql): the server runs alone from the start. */
  alone(why: string): void {
    this.off = why;
    this.role = 'alone';
    this.deps.mirror.lead(null);
    this.nowKnown();
  }

  /** Resolves once this server first knows whether it reads, follows or is alone. */
  settled(): Promise<void> {
    return this.known;
  }

  /** Whether this server reads or follows through the database now; null while it is not using it. */
  sharingRole(): 'reader' | 'follower' | null {
    return this.off === null && (this.role === 'reader' || this.role === 'follower') ? this.role : null;
  }

  /**
   * One step, every `WRITE_MS`: what changed is written; every `FOLLOW_MS` the database is read
   * (and the lease taken when it ran out); every `RENEW_MS` the reader renews. Never rejects.
   */
  async tick(): Promise<void> {
    // One step at a time: a slow database makes the next step wait, never run beside it.
    if (this.stopped || this.stepping) return;
    this.stepping = true;
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
    } finally {
      this.stepping = false;
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
      budget: this.usage.budget,
      pending: this.pending.size,
    };
  }

  /**
   * What the other servers spent of the key (this minute, today). Null while sharing is off or the
   * counts are not current: the rate limiter then keeps this server to its own share, as without
   * sharing.
   */
  othersUsage(): SharedBudget | null {
    const { syncedAt } = this;
    if (this.off !== null || syncedAt === null) return null;
    return this.usage.others(syncedAt);
  }

  /** Whether a follower's copy may decide joins (never while sharing is off). */
  private copyInStep(): boolean {
    if (this.off !== null) return false;
    return copyInStep(this.state, this.syncedAt, this.deps.clock.now(), this.deps.auditMs);
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
    this.nowKnown();
    await this.count();
  }

  /** Reads the state and the rows above the copy's version into the mirror; takes over a lapsed lease. */
  private async follow(): Promise<void> {
    const { store, mirror } = this.deps;
    const whole = this.cursor.version === 0 && this.cursor.memberId === '';
    const read = await readShared(store, this.cursor);
    const { state, done, next } = read;
    this.state = state;
    this.cursor = next;
    this.syncedAt = this.deps.clock.now();
    this.caughtUp = done;
    this.copyVersion = done ? Math.max(state.version, next.version) : next.version;
    if (read.unreadable > 0 && !this.unreadableSaid) {
      this.unreadableSaid = true;
      this.deps.logger.warn(
        `${read.unreadable} member row(s) in the shared roster could not be read and were ignored; those members are looked up when they join.`,
      );
    }
    // The reader takes what the others wrote (its own writes come back too: not newer, skipped).
    mirror.applyShared(read.rows, whole && done);
    if (state.complete && this.caughtUp && mirror.followingShared) mirror.sharedComplete(state.fullReadAt);
    if (this.role === 'follower' && leaseLapsed(this.state)) await this.takeLeaseIfFree();
  }

  /** Takes the lease when nobody's runs (or this server's does): then this server reads. */
  private async takeLeaseIfFree(): Promise<boolean> {
    const { state } = this;
    if (!this.canRead()) return false;
    if (state === null || (!leaseLapsed(state) && state.reader !== this.holder)) return false;
    if (!(await this.deps.store.lease(this.holder, LEASE_MS))) return false;
    this.lastRenew = this.deps.clock.now();
    this.becomeReader();
    return true;
  }

  private becomeReader(): void {
    if (this.role === 'reader') return;
    this.role = 'reader';
    this.writes.lead();
    const { state } = this;
    // From where the last reader left the log, when this copy holds every row it wrote.
    this.deps.mirror.lead(leadFrom(state, this.caughtUp));
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
    if (!this.canRead()) {
      await this.deps.store.release(this.holder);
      this.becomeFollower();
      return;
    }
    if (!(await this.deps.store.lease(this.holder, LEASE_MS))) this.becomeFollower();
  }

  /** What changed, written (`SharedWrites`): published by the reader, written through by a follower. */
  private async write(): Promise<void> {
    if (this.role === 'follower') return this.writes.through();
    // A full read's members go out in a few writes at once, so the others hold them in a second.
    for (let writes = 0; this.role === 'reader' && writes < WRITES_PER_STEP; writes++) {
      const written = await this.writes.publish(this.holder, this.state?.community);
      if (written === null) return this.becomeFollower();
      if (this.state && written.community !== undefined)
        this.state = { ...this.state, community: written.community };
      if (this.pending.size === 0) return;
    }
  }

  /** Adds this server's requests to the key's shared counts and reads the fleet's. */
  private async count(): Promise<void> {
    await this.usage.count(this.deps.requestsSent?.() ?? 0);
  }

  /** A server whose mirror is off (`mirror.enabled` false, a roster too large) reads nothing for the others. */
  private canRead(): boolean {
    return this.deps.mirror.report().state.kind !== 'off';
  }

  /** A failing or slow database: this server goes on alone, from what it holds, until it answers again. */
  private turnOff(error: unknown): void {
    const first = this.off === null;
    this.off = error instanceof Error ? error.message : String(error);
    this.nowKnown();
    if (!first) return;
    const was = this.role;
    this.role = 'alone';
    this.lastTry = this.deps.clock.now();
    this.deps.logger.warn(
      `the shared roster's database did not answer (${this.off}): this server reads the roster alone until it does, from what it holds.`,
    );
    if (was !== 'reader') this.deps.mirror.lead(leadFrom(this.state, this.caughtUp));
  }
}
