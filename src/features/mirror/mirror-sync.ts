import type { Catalog } from '../../roster/model';
import type { AuditPosition } from '../audit/audit-feed';
import { nameEntries } from './audit-entries';
import type { CopiedRows, MirrorChangeListener } from './member-index';
import { MirrorAttachment } from './mirror-attachment';
import { AuditStep, catchUp, type FollowedFeed } from './mirror-catch-up';
import { MirrorFreshness } from './mirror-freshness';
import { MirrorPacer } from './mirror-pacer';
import { MirrorReads } from './mirror-reads';
import { MirrorSnapshot } from './mirror-snapshot';
import type { MirrorOff, MirrorReport } from './mirror-state';
import { MirrorStatus } from './mirror-status';
import type { MirrorSyncDeps } from './mirror-sync-deps';
import type { ReadReplaced } from './named-window';
import { RosterMirror } from './roster-mirror';
import type { SavedMirror } from './saved-mirror';
import { SharedCopy, type SharedStart } from './shared-copy';

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
  /** The mirror as a copy of the roster another server reads, while it follows one. */
  private readonly shared: SharedCopy;
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
      keeping: () => !this.stopped && this.status.active && !this.shared.following,
      tooLarge,
      completed: (startedAt, ordinal, replaced) => this.completed(startedAt, ordinal, replaced),
      reread: (licenses) => void deps.online.refreshMembers(licenses, 'refresh'),
    });
    const { mirror, known, reads, pacer, step, status, attachment } = this;
    const stopped = () => this.stopped;
    const begun = () => this.begun;
    const parts = { mirror, known, reads, step, status, deps, stopped, begun };
    this.snapshot = new MirrorSnapshot({ ...parts, pacer, attachment });
    const ownInStep = () => this.ownInStep();
    // Leading again resumes the audit feed if it runs already (a handover); else it starts later.
    const resumeFeed = () => {
      if (this.feed) this.follow(this.feed);
    };
    this.shared = new SharedCopy({ ...parts, attachment, ownInStep, resumeFeed });
  }

  /** The mirror saved before a restart, held at once; true: it catches up (`MirrorSnapshot.restore`). */
  restore(saved: SavedMirror): boolean {
    return this.snapshot.restore(saved);
  }

  /**
   * The audit feed runs (after the key check): while catching up, it resumes from the snapshot's
   * position at once. Its position is what the next snapshot keeps.
   */
  follow(feed: FollowedFeed): void {
    this.feed = feed;
    // Another server reads: the feed is resumed (and a catch-up run) only once this one leads.
    if (this.shared.following) {
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

  /** The key was verified for `community`, before `begin` (`MirrorSnapshot.verified`). */
  verified(community: string): void {
    this.snapshot.verified(community);
  }

  /** Starts the first read (none while catching up) and the passes; once only, never when off. */
  begin(): void {
    if (this.begun || this.stopped || this.status.off) return;
    this.begun = true;
    if (this.status.state.kind === 'waiting') this.status.state = { kind: 'reading' };
    this.attachment.attach();
    if (this.shared.following) {
      // The database's reader reads; the passes below do nothing while this one follows.
    } else if (!this.status.catchingUp) void this.reads.resync();
    // Followed before this, in the key check's hooks; none means the log is not read.
    else if (!this.step.following) this.stale('the audit log is not read');
    const catchingUp = () => this.status.catchingUp;
    this.reads.schedule(this.deps.schedule, this.deps.resyncMs, this.known.fullReadAt, catchingUp);
  }

  /** Whether another server reads the roster and this one follows it (`followShared`). */
  get followingShared(): boolean {
    return this.shared.following;
  }

  /** Where the audit feed had handled the log with every change in the members held; null: not in step. */
  auditPosition(): AuditPosition | null {
    return this.status.catchingUp || this.shared.following ? null : this.step.position();
  }

  /** The community whose roster is held (`communityKey`), once known. */
  get communityHeld(): string | null {
    return this.snapshot.communityHeld;
  }

  /** Told of what the service's answers and this server's reads change in the members held. */
  onChange(listener: MirrorChangeListener | null): void {
    this.mirror.onChange(listener);
  }

  /** Another server reads the roster: its copy is held, nothing is read here (`SharedCopy.follow`). */
  followShared(inStep: () => boolean): void {
    this.shared.follow(inStep);
  }

  /** Records other servers wrote, put or no longer held (`SharedCopy.apply`). */
  applyShared(rows: CopiedRows, whole = false): void {
    this.shared.apply(rows, whole);
  }

  /** The reader said its roster is complete (`SharedCopy.complete`). */
  sharedComplete(fullReadAt: number | null): void {
    this.shared.complete(fullReadAt);
  }

  /** This server reads the roster again itself, from where the reader left it (`SharedCopy.lead`). */
  lead(from: SharedStart | null): void {
    this.shared.lead(from);
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
    nameEntries(fresh, this.mirror, this.reads);
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
      followingShared: this.shared.following && !this.status.off,
    };
  }

  /**
   * What the snapshot keeps: the members held, with the last full read's time (nothing before a
   * full read or a restore), and the feed's position only while every entry it handled reached
   * them; nothing past `SAVED_MIRROR_LIMIT` members (the next start reads the roster in full).
   * `catalog`: departments and ranks as loaded now; null keeps the ones restored.
   */
  toSave(catalog: Catalog | null): SavedMirror | null {
    return this.status.active ? this.snapshot.save(catalog) : null;
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
