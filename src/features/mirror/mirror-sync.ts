import type { LimiterState } from '../../http';
import type { Schedule } from '../../kernel/schedule';
import type { Clock, Logger } from '../../platform/ports';
import { CatalogIndex } from '../../roster/catalog-index';
import type { LicenseClaims } from '../../roster/claimed-licenses';
import type { MemberResolver } from '../../roster/member-resolver';
import type { Catalog } from '../../roster/model';
import type { OnlinePlayers } from '../../roster/online-players';
import type { AuditPosition } from '../audit/audit-feed';
import { entryValues } from '../audit/entry-values';
import { MirrorAttachment } from './mirror-attachment';
import { AuditStep, catchUp, type FollowedFeed } from './mirror-catch-up';
import { MirrorFreshness } from './mirror-freshness';
import { MirrorPacer } from './mirror-pacer';
import { MirrorReads } from './mirror-reads';
import { MirrorSnapshot } from './mirror-snapshot';
import type { MirrorOff, MirrorReport } from './mirror-state';
import { MirrorStatus } from './mirror-status';
import { licenseKey, type MirroredMember } from './mirrored-member';
import type { ReadReplaced } from './named-window';
import type { PageSource } from './paced-pages';
import { type MirrorChangeListener, RosterMirror } from './roster-mirror';
import { restartState, type SavedMirror } from './saved-mirror';

export interface MirrorSyncDeps {
  /** The roster client: whole answers (paging included) and the key's minute as the limiter knows it. */
  source: PageSource & {
    limiterState(): Pick<
      LimiterState,
      'perMinute' | 'remainingThisMinute' | 'resetAt' | 'keyUsedLastMinute'
    > & { joinsWaiting: number };
  };
  members: Pick<MemberResolver, 'useMirror' | 'onAnswer'>;
  online: Pick<OnlinePlayers, 'followMirror' | 'refreshMembers'>;
  schedule: Schedule;
  clock: Clock;
  logger: Logger;
  /** `cache.maxEntries`: a larger roster turns the mirror off. */
  maxEntries: number;
  /** `refresh.auditSeconds`: how often members created since the last read are read. */
  passMs: number;
  /** `mirror.resyncMinutes`: how often the whole roster is read again. */
  resyncMs: number;
  /** Told of each license several members claim, the deciding (most recent) membership first. */
  licenseClaims?: LicenseClaims;
  /** The licenses of the players online: the ones a shared change must reach at once. */
  onlineLicenses?: () => Iterable<string>;
}

/** Where another server left the roster when this one takes over reading it. */
export interface SharedStart {
  /** Where that server's audit feed had handled the log, every change in the members held; null: not known. */
  audit: AuditPosition | null;
  /** When its last full read completed (its clock); null: none. */
  fullReadAt: number | null;
  /** Its mirror was complete and in step when it last wrote. */
  complete: boolean;
}

/**
 * Keeps the whole roster on the server: a first full read in the
 * background, then the service's every answer (joins, refreshes, the audit feed's re-reads), the
 * members created since each pass, a full read again every `mirror.resyncMinutes` and whenever
 * `resync` is asked (the audit feed could not read some entries). Joins are answered from it only
 * once a full read completed; until then, and while it is off, they are looked up as before.
 *
 * After a restart it starts from the snapshot (`restore`): a recent one is caught up on the audit
 * log from the position saved with it (`follow`) instead of read again, and answers joins once
 * that completes; an old one, or one whose catch-up fails, serves the outage policy only (last
 * known records) until a full read replaces it.
 */
export class MirrorSync {
  private readonly mirror: RosterMirror;
  private readonly pacer: MirrorPacer;
  private readonly reads: MirrorReads;
  private readonly status: MirrorStatus;
  private readonly attachment: MirrorAttachment;
  private stopped = false;
  private begun = false;
  private readonly step = new AuditStep();
  private readonly known: MirrorFreshness;
  private readonly snapshot: MirrorSnapshot;
  /** The community whose roster is held: the verified key's, else the restored snapshot's. */
  private community: string | null = null;
  /** A snapshot was restored and the key not verified since. */
  private unverified = false;
  /**
   * Another server reads the roster and this one follows it through the database: no reads of
   * its own (no first read, no audit catch-up, no full re-reads) until `lead`.
   */
  private following = false;
  private feed: FollowedFeed | null = null;

  constructor(private readonly deps: MirrorSyncDeps) {
    this.status = new MirrorStatus(deps.logger);
    const tooLarge = (size: number) => this.turnOff({ why: 'too-large', size, maxEntries: deps.maxEntries });
    this.mirror = new RosterMirror(deps.maxEntries, tooLarge, deps.clock, deps.licenseClaims);
    this.known = new MirrorFreshness(deps.clock, deps.passMs, this.step);
    this.mirror.inStep = () => this.ownInStep();
    this.attachment = new MirrorAttachment(deps.members, this.mirror);
    this.pacer = new MirrorPacer(deps.clock, () => deps.source.limiterState());
    const { source, clock, logger, maxEntries, passMs } = deps;
    this.reads = new MirrorReads({
      reads: { source, pacer: this.pacer, logger, mirror: this.mirror, maxEntries },
      mirror: this.mirror,
      clock,
      logger,
      passMs,
      keeping: () => !this.stopped && this.status.active && !this.following,
      tooLarge,
      completed: (startedAt, ordinal, replaced) => this.completed(startedAt, ordinal, replaced),
      reread: (licenses) => void deps.online.refreshMembers(licenses, 'refresh'),
    });
    const { mirror, known, reads, pacer, step } = this;
    this.snapshot = new MirrorSnapshot({ mirror, known, reads, pacer, step });
  }

  /**
   * The mirror saved before a restart, loaded before the key is verified: held at once as last
   * known records (and found by id for the audit feed). One whose last full read is younger than
   * `mirror.resyncMinutes` and saved in step with the audit log catches up once the feed runs (true);
   * any other is stale.
   */
  restore(saved: SavedMirror): boolean {
    if (this.status.state.kind !== 'waiting' || this.stopped) return false;
    this.mirror.restore(saved.members, new CatalogIndex(saved.catalog));
    if (this.status.off) return false;
    this.community = saved.community;
    this.unverified = true;
    this.snapshot.restore(saved);
    this.attachment.attach();
    const now = this.deps.clock.now();
    this.status.state = restartState(saved, now, this.deps.resyncMs);
    if (this.status.catchingUp && saved.audit) this.step.restored(saved.audit, now);
    return this.status.catchingUp;
  }

  /**
   * The audit feed runs (after the key check): while catching up, it resumes from the snapshot's
   * position at once. Its position is what the next snapshot keeps.
   */
  follow(feed: FollowedFeed): void {
    this.feed = feed;
    // Another server reads: the feed is resumed (and a catch-up run) only once this one leads.
    if (this.following) {
      this.step.watch(feed);
      return;
    }
    const from = this.step.follow(feed);
    if (!this.status.catchingUp || from === null) return;
    void catchUp(feed, from).then((result) => {
      if (!this.status.catchingUp || this.stopped) return;
      if (result.done) this.trust(result.reads);
      else this.stale(`the audit catch-up could not complete: ${result.why}`);
    });
  }

  /**
   * The key was verified for `community` (`communityKey`), before `begin`. A restored snapshot of
   * another community's roster, or one that does not say whose it is, is dropped whole (its
   * members are strangers here, for joins and the outage policy alike): the roster is read in full.
   */
  verified(community: string): void {
    const restored = this.unverified ? this.community : community;
    this.community = community;
    this.unverified = false;
    if (restored === community || this.status.off || this.begun || this.stopped) return;
    this.mirror.clear();
    this.step.lost();
    this.known.fullReadAt = null;
    this.reads.newest = null;
    this.status.state = { kind: 'waiting' };
    this.deps.logger.warn(
      'the roster mirror in the snapshot was not saved for this community: it is dropped, and the roster is read in full.',
    );
  }

  /** Starts the first read (none while catching up) and the passes; once only, never when off. */
  begin(): void {
    if (this.begun || this.stopped || this.status.off) return;
    this.begun = true;
    if (this.status.state.kind === 'waiting') this.status.state = { kind: 'reading' };
    this.attachment.attach();
    if (this.following) {
      // The database's reader reads; the passes below do nothing while this one follows.
    } else if (!this.status.catchingUp) void this.reads.resync();
    // Followed before this, in the key check's hooks; none means the log is not read.
    else if (!this.step.following) this.stale('the audit log is not read');
    const catchingUp = () => this.status.catchingUp;
    this.reads.schedule(this.deps.schedule, this.deps.resyncMs, this.known.fullReadAt, catchingUp);
  }

  /** Whether another server reads the roster and this one follows it (`followShared`). */
  get followingShared(): boolean {
    return this.following;
  }

  /** Where the audit feed had handled the log with every change in the members held; null: not in step. */
  auditPosition(): AuditPosition | null {
    return this.status.catchingUp || this.following ? null : this.step.position();
  }

  /** The community whose roster is held (`communityKey`), once known. */
  get communityHeld(): string | null {
    return this.community;
  }

  /** Told of what the service's answers and this server's reads change in the members held. */
  onChange(listener: MirrorChangeListener | null): void {
    this.mirror.onChange(listener);
  }

  /**
   * Another server reads the roster; this one holds what it wrote to the database (`applyShared`)
   * and reads nothing of its own, and answers joins while `inStep` says that copy is current.
   * A read of its own under way ends at its next wait.
   */
  followShared(inStep: () => boolean): void {
    if (this.stopped || this.status.off) return;
    this.following = true;
    this.mirror.inStep = inStep;
  }

  /**
   * Records other servers wrote, as the database holds them: put, or no longer held (member ids).
   * `whole`: they are every member the database holds; any other held is no longer. While this
   * server reads the roster itself, only records read later than its own are taken (what another
   * server looked up); while it follows, every one. The players online whose record changed
   * follow it at once.
   */
  applyShared(put: readonly MirroredMember[], removed: readonly string[], whole = false): void {
    if (this.status.off || this.stopped) return;
    if (whole && !this.following) return;
    let gone = removed;
    if (whole) {
      const kept = new Set(put.map((member) => member.id));
      gone = [...removed, ...[...this.mirror.members()].filter((m) => !kept.has(m.id)).map((m) => m.id)];
    }
    if (put.length === 0 && gone.length === 0) return;
    const changed = this.mirror.applyShared(put, gone, !this.following);
    if (changed.length === 0 || !this.mirror.complete) return;
    const online = new Set<string>();
    for (const license of this.deps.onlineLicenses?.() ?? []) online.add(licenseKey(license));
    if (changed.some((key) => online.has(key))) void this.deps.online.followMirror();
  }

  /**
   * The reader said its roster is complete (its last full read completed at `fullReadAt`, its
   * clock): what was applied is the whole roster, answered while the copy stays in step.
   */
  sharedComplete(fullReadAt: number | null): void {
    if (!this.following || this.status.off || this.stopped) return;
    if (fullReadAt !== null) this.known.fullReadAt = fullReadAt;
    // Said every time the database is read: only the first time changes anything.
    if (this.mirror.complete && this.status.state.kind === 'up') return;
    this.mirror.trust();
    this.status.fullRead();
    void this.deps.online.followMirror();
    this.deps.logger.info(
      `the roster mirror holds the shared roster's ${this.mirror.size} members: their joins are decided without a request.`,
    );
  }

  /**
   * This server reads the roster again itself (it holds the lease, or the database cannot be
   * trusted): from where the reader left the audit log (`from`: every change before it is in the
   * members it wrote) when what is held is the copy of a complete roster and its last full read is
   * younger than `mirror.resyncMinutes`, as after a restart from a recent snapshot; a snapshot
   * restored and still catching up goes on doing so; else what is held may miss changes (a gap):
   * nothing is decided from it until a full read completes, which begins now.
   */
  lead(from: SharedStart | null): void {
    if (!this.following || this.stopped || this.status.off) return;
    this.following = false;
    this.mirror.inStep = () => this.ownInStep();
    const now = this.deps.clock.now();
    const age = from?.fullReadAt == null ? Number.POSITIVE_INFINITY : now - from.fullReadAt;
    if (from?.audit && this.mirror.complete && age >= 0 && age < this.deps.resyncMs) {
      this.known.fullReadAt = from.fullReadAt;
      this.status.state = { kind: 'catching-up' };
      this.step.restored(from.audit, now);
    }
    if (this.status.catchingUp) {
      // The feed runs already (a handover): the catch-up starts now; else when it starts.
      if (this.feed) this.follow(this.feed);
      return;
    }
    if (this.mirror.complete)
      this.known.gap('the shared roster could not be followed on from the database', this.reads.begun);
    if (this.begun) void this.reads.resync();
  }

  /** Reads the whole roster again (now, or right after the read under way). Never rejects. */
  resync(): Promise<void> {
    return this.reads.resync();
  }

  /**
   * The audit log could not be read in full (`reason`): what is held may miss changes, so joins
   * are looked up, not decided from it, until a full read begun now completes; it begins at once
   * (or right after the one under way, which began before the gap and cannot close it).
   */
  gap(reason: string): void {
    if (!this.status.active || this.stopped) return;
    this.known.gap(reason, this.reads.begun);
    if (this.begun) void this.reads.resync();
  }

  /**
   * Ids the audit log named just now (every value of the entries read): a read under way keeps
   * them, so the members it brings that a change named are read again before they are answered.
   */
  named(ids: Iterable<string>): void {
    if (this.status.active) this.mirror.named(ids);
  }

  /**
   * Entries a read of the audit log brought: every value in them is named (an entry that cannot be
   * read is the feed's gap to report, which stops the mirror deciding anyway).
   */
  entriesRead(fresh: readonly unknown[]): void {
    if (!this.status.active || fresh.length === 0) return;
    for (const entry of fresh) {
      let values: Set<string>;
      try {
        values = entryValues(entry);
      } catch {
        // Unreadable: the feed reports it as a gap.
        continue;
      }
      this.mirror.named(values);
      // About no one held: perhaps a member created since, perhaps on a license an older
      // membership holds. Those are read at the next pass, not at the next 10-minute read.
      if (!this.mirror.namesAnyHeld(values)) this.reads.wantNewMembers();
    }
  }

  /**
   * The key was refused `audit:read` at start and has it now: the mirror starts as at a start
   * with no snapshot to trust (a full read first). Off for any other reason, it stays off.
   */
  auditReadGranted(): void {
    const { state } = this.status;
    if (state.kind !== 'off' || state.why !== 'no-audit-read' || this.stopped) return;
    this.status.state = { kind: 'waiting' };
    this.pacer.resume();
    this.begin();
  }

  /** Turns the mirror off (until the resource restarts): joins are looked up as before. */
  turnOff(off: MirrorOff): void {
    if (!this.status.turnOff(off)) return;
    this.detach();
    this.status.sayOff(off);
  }

  /** The resource stops: reads under way end quietly. */
  stop(): void {
    this.stopped = true;
    this.detach();
  }

  report(): MirrorReport {
    return {
      state: this.status.state,
      held: this.status.off ? 0 : this.mirror.size,
      lastFullReadAt: this.known.fullReadAt,
      requestsToday: this.pacer.requestsToday,
      failure: this.reads.failure,
      caughtUp: this.known.caughtUp,
      auditReadAt: this.step.caughtUpAt(),
      deciding: this.mirror.answering,
      gaps: this.known.gaps,
      lastGap: this.known.lastGap && { ...this.known.lastGap },
      clockSkew: this.step.skew(),
      followingShared: this.following && !this.status.off,
    };
  }

  /**
   * What the snapshot keeps: the members held, with the last full read's time (nothing before a
   * full read or a restore), and the feed's position only while every entry it handled reached
   * them; nothing past `SAVED_MIRROR_LIMIT` members (the next start reads the roster in full).
   * `catalog`: departments and ranks as loaded now; null keeps the ones restored.
   */
  toSave(catalog: Catalog | null): SavedMirror | null {
    return this.status.active ? this.snapshot.save(catalog, this.community) : null;
  }

  private completed(startedAt: number, ordinal: number, replaced: ReadReplaced): void {
    this.known.fullRead(startedAt, ordinal);
    // More changes came while it ran than it could keep track of: it cannot be trusted whole.
    if (replaced.overflowed)
      this.gap('more changes were logged while the roster was read than it can follow');
    const first = this.status.fullRead();
    // The full read is the safety net for the players online too (the periodic refresh stands
    // down while the mirror answers).
    void this.deps.online.followMirror();
    if (first)
      this.deps.logger.info(
        `the roster mirror holds ${this.mirror.size} members: their joins are decided without a request.`,
      );
  }

  /** In step by this server's own reads; never while a catch-up runs. */
  private ownInStep(): boolean {
    return !this.status.catchingUp && this.known.inStep();
  }

  /** A restored snapshot caught up: joins are decided from it again. */
  private trust(reads: number): void {
    this.mirror.trust();
    this.known.caughtUpIn(reads);
    this.status.caughtUp(reads, this.mirror.size);
  }

  /** What is held serves the outage policy only, until a full read (now, or once begun). */
  private stale(why: string): void {
    this.step.lost();
    this.status.stale(why);
    if (this.begun) void this.reads.resync();
  }

  private detach(): void {
    this.pacer.stop();
    this.attachment.detach();
    this.mirror.clear();
  }
}
