import type { LimiterState } from '../limiter/limiter-state';
import type { Catalog } from '../model';
import type { Clock, Logger } from '../ports';
import { CatalogIndex } from '../roster/catalog-index';
import type { RosterService } from '../roster/roster-service';
import type { Schedule } from '../schedule';
import { AuditStep, catchUp, type FollowedFeed } from './mirror-catch-up';
import { MirrorPacer } from './mirror-pacer';
import { MirrorReads } from './mirror-reads';
import type { MirrorOff, MirrorReport, MirrorState } from './mirror-state';
import type { PageSource } from './paced-pages';
import { RosterMirror } from './roster-mirror';
import { restartState, SAVED_MIRROR_LIMIT, type SavedMirror } from './saved-mirror';

export interface MirrorSyncDeps {
  /** The roster client: whole answers (paging included) and the key's minute as the limiter knows it. */
  source: PageSource & {
    limiterState(): Pick<LimiterState, 'perMinute' | 'remainingThisMinute' | 'resetAt' | 'keyUsedLastMinute'>;
  };
  service: Pick<RosterService, 'useMirror' | 'onAnswer' | 'followMirror'>;
  schedule: Schedule;
  clock: Clock;
  logger: Logger;
  /** `cache.maxEntries`: a larger roster turns the mirror off. */
  maxEntries: number;
  /** `refresh.auditSeconds`: how often members created since the last read are read. */
  passMs: number;
  /** `mirror.resyncMinutes`: how often the whole roster is read again. */
  resyncMs: number;
}

/** Audit intervals without the roster known whole before the mirror stops answering joins. */
const IN_STEP_PASSES = 2.5;

/**
 * Keeps the whole roster on the server (CONTRACT.md section 14): a first full read in the
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
  private state: MirrorState = { kind: 'waiting' };
  private lastFullReadAt: number | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  private begun = false;
  private readonly step = new AuditStep();
  private caughtUp: MirrorReport['caughtUp'] = null;
  private catalog: Catalog = { departments: [], ranks: [] };

  constructor(private readonly deps: MirrorSyncDeps) {
    const tooLarge = (size: number) => this.turnOff({ why: 'too-large', size, maxEntries: deps.maxEntries });
    this.mirror = new RosterMirror(deps.maxEntries, tooLarge);
    this.mirror.inStep = () => this.inStep();
    this.pacer = new MirrorPacer(deps.clock, () => deps.source.limiterState());
    const { source, clock, logger, maxEntries, passMs } = deps;
    this.reads = new MirrorReads({
      reads: { source, pacer: this.pacer, logger, mirror: this.mirror, maxEntries },
      mirror: this.mirror,
      clock,
      logger,
      passMs,
      keeping: () => !this.stopped && this.isActive(),
      tooLarge,
      completed: (startedAt) => this.completed(startedAt),
    });
  }

  /**
   * The mirror saved before a restart, loaded before the key is verified: held at once as last
   * known records (and found by id for the audit feed). One whose last full read is younger than
   * `mirror.resyncMinutes` and saved in step with the audit log catches up once the feed runs (true);
   * any other is stale.
   */
  restore(saved: SavedMirror): boolean {
    if (this.state.kind !== 'waiting' || this.stopped) return false;
    this.mirror.restore(saved.members, new CatalogIndex(saved.catalog));
    if (this.isOff()) return false;
    this.catalog = saved.catalog;
    this.lastFullReadAt = saved.fullReadAt;
    this.reads.newest = saved.newestMember;
    this.pacer.restoreSpent(saved.spent);
    this.attach();
    const now = this.deps.clock.now();
    this.state = restartState(saved, now, this.deps.resyncMs);
    if (this.state.kind === 'catching-up' && saved.audit) this.step.restored(saved.audit, now);
    return this.state.kind === 'catching-up';
  }

  /**
   * The audit feed runs (after the key check): while catching up, it resumes from the snapshot's
   * position at once. Its position is what the next snapshot keeps.
   */
  follow(feed: FollowedFeed): void {
    const from = this.step.follow(feed);
    if (this.state.kind !== 'catching-up' || from === null) return;
    void catchUp(feed, from).then((result) => {
      if (this.state.kind !== 'catching-up' || this.stopped) return;
      if (result.done) this.trust(result.reads);
      else this.stale(`the audit catch-up could not complete: ${result.why}`);
    });
  }

  /** Starts the first read (none while catching up) and the passes; once only, never when off. */
  begin(): void {
    if (this.begun || this.stopped || this.isOff()) return;
    this.begun = true;
    if (this.state.kind === 'waiting') this.state = { kind: 'reading' };
    this.attach();
    if (this.state.kind !== 'catching-up') void this.reads.resync();
    // Followed before this, in the key check's hooks; none means the log is not read.
    else if (!this.step.following) this.stale('the audit log is not read');
    const catchingUp = () => this.state.kind === 'catching-up';
    this.reads.schedule(this.deps.schedule, this.deps.resyncMs, this.lastFullReadAt, catchingUp);
  }

  /** Reads the whole roster again (now, or right after the read under way). Never rejects. */
  resync(): Promise<void> {
    return this.reads.resync();
  }

  /**
   * The key was refused `audit:read` at start and has it now: the mirror starts as at a start
   * with no snapshot to trust (a full read first). Off for any other reason, it stays off.
   */
  auditReadGranted(): void {
    if (this.state.kind !== 'off' || this.state.why !== 'no-audit-read' || this.stopped) return;
    this.state = { kind: 'waiting' };
    this.pacer.resume();
    this.begin();
  }

  /** Turns the mirror off (until the resource restarts): joins are looked up as before. */
  turnOff(off: MirrorOff): void {
    if (this.state.kind === 'off') return;
    this.state = { kind: 'off', ...off };
    this.detach();
    if (off.why === 'too-large') {
      this.deps.logger.warn(
        `the roster holds more than cache.maxEntries (${off.maxEntries}) members (${off.size} found): the roster mirror is off and every join is looked up. Raise cache.maxEntries to keep the whole roster on the server.`,
      );
    }
  }

  /** The resource stops: reads under way end quietly. */
  stop(): void {
    this.stopped = true;
    this.detach();
  }

  report(): MirrorReport {
    return {
      state: this.state,
      held: this.state.kind === 'off' ? 0 : this.mirror.size,
      lastFullReadAt: this.lastFullReadAt,
      requestsToday: this.pacer.requestsToday,
      failure: this.reads.failure,
      caughtUp: this.caughtUp,
      auditReadAt: this.step.caughtUpAt(),
    };
  }

  /**
   * What the snapshot keeps: the members held, with the last full read's time (nothing before a
   * full read or a restore), and the feed's position only while every entry it handled reached
   * them; nothing past `SAVED_MIRROR_LIMIT` members (the next start reads the roster in full).
   * `catalog`: departments and ranks as loaded now; null keeps the ones restored.
   */
  toSave(catalog: Catalog | null): SavedMirror | null {
    if (this.lastFullReadAt === null || !this.isActive()) return null;
    if (this.mirror.size > SAVED_MIRROR_LIMIT) return null;
    if (catalog !== null) this.catalog = catalog;
    return {
      fullReadAt: this.lastFullReadAt,
      audit: this.step.position(),
      newestMember: this.reads.newest,
      catalog: this.catalog,
      members: [...this.mirror.members()],
      spent: this.pacer.spent,
    };
  }

  /**
   * In step while the roster was last known whole (a full read, a catch-up, or the audit feed
   * reaching the end of the log) within the time the feed itself calls healthy: an audit log that
   * cannot be read for a while must not leave joins decided on a roster that no longer holds.
   */
  private inStep(): boolean {
    const known = Math.max(
      this.lastFullReadAt ?? Number.NEGATIVE_INFINITY,
      this.caughtUp?.at ?? Number.NEGATIVE_INFINITY,
      this.step.caughtUpAt() ?? Number.NEGATIVE_INFINITY,
    );
    return this.deps.clock.now() - known < this.deps.passMs * IN_STEP_PASSES;
  }

  private completed(startedAt: number): void {
    const first = this.state.kind !== 'up';
    this.lastFullReadAt = this.deps.clock.now();
    this.step.readFrom(startedAt);
    this.state = { kind: 'up' };
    // The full read is the safety net for the players online too (the periodic refresh stands
    // down while the mirror answers).
    void this.deps.service.followMirror();
    if (first)
      this.deps.logger.info(
        `the roster mirror holds ${this.mirror.size} members: their joins are decided without a request.`,
      );
  }

  /** A restored snapshot caught up: joins are decided from it again. */
  private trust(reads: number): void {
    this.mirror.trust();
    this.state = { kind: 'up' };
    this.caughtUp = { at: this.deps.clock.now(), reads };
    this.deps.logger.info(
      `the roster mirror caught up on the audit log since the snapshot in ${reads} read(s): its ${this.mirror.size} members' joins are decided without a request again.`,
    );
  }

  /** What is held serves the outage policy only, until a full read (now, or once begun). */
  private stale(why: string): void {
    this.state = { kind: 'stale', why };
    this.step.lost();
    this.deps.logger.warn(
      `the roster mirror's snapshot is stale (${why}): joins are looked up, and the roster is read again in full.`,
    );
    if (this.begun) void this.reads.resync();
  }

  /** Read afresh each time: a read or a callback may have turned the mirror off meanwhile. */
  private isOff(): boolean {
    return this.state.kind === 'off';
  }

  /** Keeping a mirror: reading one, holding one or catching one up. */
  private isActive(): boolean {
    return this.state.kind !== 'off' && this.state.kind !== 'waiting';
  }

  /** Hears the service's answers and lets it find what is held; once. */
  private attach(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.deps.service.onAnswer((license, answer) => this.mirror.heard(license, answer));
    this.deps.service.useMirror(this.mirror);
  }

  private detach(): void {
    this.pacer.stop();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.deps.service.useMirror(null);
    this.mirror.clear();
  }
}
