import type { Clock, Logger } from '../../platform/ports';
import type { RosterCatalog } from '../../roster/catalog';
import type { QueryValues } from '../../roster/client/roster-api';
import type { OnlinePlayers } from '../../roster/online-players';
import type { PlayerRegistry } from '../../roster/player-registry';
import { AuditCursor } from './audit-cursor';
import { AuditLogReads } from './audit-log-reads';
import { CatalogReloads } from './catalog-reloads';
import { type MemberIndex, matchEntries, unreadableReason } from './entry-matches';
import { type AuditFeedState, FeedHealth } from './feed-health';

export { CATALOG_RELOAD_GAP_MS } from './catalog-reloads';
export type { AuditFeedState } from './feed-health';

export interface AuditFeedDeps {
  /** Pages of `GET /api/v1/audit-logs` with this query, oldest first, at most `passSize` entries. */
  list(query: QueryValues): Promise<unknown[]>;
  /** The most entries one `list` brings (its pages × 100): a read that brings this many stopped short. */
  passSize: number;
  /**
   * The two newest entries (`sort=-createdAt&limit=2`): where the log stands as the feed starts.
   * The first read starts no later than the newest of them.
   */
  newest(): Promise<unknown>;
  /**
   * The service's own time (its `Date` header), which stamps are judged against; this server's
   * clock stands in without it (a service and a server on one clock, as in tests).
   */
  serviceTime?: () => number;
  catalog: RosterCatalog;
  online: Pick<OnlinePlayers, 'refreshMembers' | 'reshapeOnline'>;
  players: PlayerRegistry;
  /** The member cache: members who are not online are found by id through it. */
  cache: MemberIndex;
  clock: Clock;
  logger: Logger;
  /** How often `poll` runs, to tell a stalled feed from a working one. */
  intervalMs: number;
  /**
   * Entries were lost (a backlog too long to page through, entries the feed cannot read): what the
   * server holds may be out of date and must be read again in full.
   */
  gap(reason: string): void;
  /**
   * Told the entries each read brought that were not handled before (possibly none), right after
   * the read and before they are matched to members.
   */
  entriesRead?(fresh: readonly unknown[]): void;
}

/**
 * How far before the service's time a read starts: entries stamped up to this far behind it (a
 * node whose clock is a few minutes slow, a late commit, equal stamps) are still listed.
 */
export const AUDIT_OVERLAP_MS = 5 * 60_000;

/** What one read of the audit log did. */
export interface AuditPass {
  entries: number;
  /** Members (by license, online or not) re-read because an entry named them. */
  members: number;
  catalog: boolean;
  /** The read stopped at its size: the next goes on from its last entry. */
  behind: boolean;
}

/**
 * How far the feed has handled the log, in the service's time: a read that began then reached the
 * end of the log and the members its entries named were read again (entries stamped a little
 * earlier and listed later aside, which resuming reads again). Never ahead of the service's time.
 * `at` null: nothing yet, the log's beginning. What a restart resumes from.
 */
export interface AuditPosition {
  at: number | null;
}

/**
 * The audit log as a change feed: each read lists the entries since the last one seen and re-reads
 * just the members they name, online or held in the cache, in one batch: a member suspended while
 * offline is refused at their next join from the record re-read. An entry that names a department
 * or rank (and no member) reloads departments and ranks; any other costs nothing. A burst larger
 * than a read is read on from where the read stopped; entries that cannot be read are a gap,
 * said once and answered by reading everything again.
 */
export class AuditFeed {
  private readonly cursor: AuditCursor;
  private readonly catalog: CatalogReloads;
  private readonly health: FeedHealth;
  private readonly reads: AuditLogReads;
  private polling: Promise<AuditPass> | null = null;
  /** Where every entry was handled; null until the cursor is anchored or resumed. */
  private handled: AuditPosition | null = null;
  /**
   * Licenses whose re-read failed: tried again with the next read. Bounded by the members the
   * server holds (online players and the cache).
   */
  private readonly owed = new Set<string>();

  constructor(private readonly deps: AuditFeedDeps) {
    this.cursor = new AuditCursor(AUDIT_OVERLAP_MS, deps.serviceTime ?? (() => deps.clock.now()));
    this.catalog = new CatalogReloads(deps.catalog, deps.online, deps.clock);
    this.health = new FeedHealth(deps);
    this.reads = new AuditLogReads(this.cursor, this.health, deps, () => {
      this.handled = { at: this.cursor.position };
    });
  }

  /**
   * True while reads reach the end of the log on time: the full refresh of everyone can then be a
   * rare safety net. A feed paging through a backlog, or failing, is not.
   */
  get healthy(): boolean {
    return this.health.healthy;
  }

  get running(): boolean {
    return this.health.running;
  }

  state(): AuditFeedState {
    return this.health.state(this.cursor.behind);
  }

  /** One read of the audit log (the one under way, if any); never throws. */
  poll(): Promise<AuditPass> {
    this.polling ??= this.readOnce().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /** Members an entry named whose re-read failed: tried again with the next read. */
  get unreadMembers(): number {
    return this.owed.size;
  }

  /** Where a restart may resume the log from; null until the feed knows where it stands. */
  position(): AuditPosition | null {
    return this.handled;
  }

  /**
   * Resumes the log from a position saved before a restart, instead of anchoring on its newest
   * entries: the reads that follow handle every entry since (the overlap before it again).
   */
  resumeFrom(position: AuditPosition): void {
    this.cursor.resume(position.at);
    this.handled = { at: this.cursor.position };
  }

  private async readOnce(): Promise<AuditPass> {
    const pass: AuditPass = { entries: 0, members: 0, catalog: false, behind: false };
    if (!this.health.running) return pass;
    // A read that reaches the end of the log knows it as of when it was asked, not when it came back.
    const askedAt = this.deps.clock.now();
    const entries = await this.reads.read();
    if (entries === null) return pass;
    const step = this.cursor.read(entries, entries.length >= this.deps.passSize);
    if (!step.behind) this.health.caughtUp(askedAt);
    pass.behind = step.behind;
    if (step.gap !== null) this.health.gap(step.gap);
    this.health.ahead(step.ahead);
    this.deps.entriesRead?.(step.fresh);
    pass.entries = step.fresh.length;
    if (step.fresh.length === 0 && this.owed.size === 0 && !this.catalog.pending) {
      this.handled = { at: this.cursor.position };
      return pass;
    }

    const { catalog, online } = this.deps;
    const matches = matchEntries(step.fresh, this.deps.players, this.deps.cache, catalog.index);
    if (matches.unreadable.length > 0) this.health.gap(unreadableReason(matches.unreadable));
    if (matches.catalog) this.catalog.ask();
    // Names first, so the members re-read below are shaped with the new department and rank names.
    pass.catalog = await this.catalog.runIfDue();
    const licenses = new Set([...this.owed, ...matches.licenses]);
    this.owed.clear();
    pass.members = licenses.size;
    for (const license of await online.refreshMembers(licenses)) this.owed.add(license);
    // Stamps read now, or the position before this read while a member it named is owed.
    if (this.owed.size === 0) this.handled = { at: this.cursor.position };
    return pass;
  }

  stop(): void {
    this.health.stop();
  }

  /**
   * Anchors the cursor on the log as it stands (its newest entries), once; a read anchors first if
   * this did not. False when the service could not answer.
   */
  anchor(): Promise<boolean> {
    return this.reads.anchor();
  }
}
