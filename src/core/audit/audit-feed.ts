import type { QueryValues } from '../api/roster-api';
import { RosterServiceError } from '../api/roster-api-error';
import type { PlayerRegistry } from '../players/player-registry';
import type { Clock, Logger } from '../ports';
import type { RosterService } from '../roster/roster-service';
import { AuditCursor } from './audit-cursor';
import { CatalogReloads } from './catalog-reloads';
import { type MemberIndex, matchEntries } from './entry-matches';

export { CATALOG_RELOAD_GAP_MS } from './catalog-reloads';

export interface AuditFeedDeps {
  /** Pages of `GET /api/v1/audit-logs` with this query, oldest first, at most `passSize` entries. */
  list(query: QueryValues): Promise<unknown[]>;
  /** The most entries one `list` brings (its pages × 100): a read that brings this many stopped short. */
  passSize: number;
  /**
   * The two newest entries (`sort=-createdAt&limit=2`): where the service's own clock stands. The
   * entries' stamps, not the `Date` header, because the cursor compares stamps with stamps only:
   * the same clock, to the millisecond, whatever proxy answers.
   */
  newest(): Promise<unknown>;
  service: RosterService;
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
}

/** How far back a sweep stays below the newest entries (equal stamps, late commits). */
export const AUDIT_OVERLAP_MS = 120_000;

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
 * How far the feed has handled the log, in the service's time: every entry stamped up to `at` was
 * read and the members it named read again (late commits aside, which resuming re-reads). `at`
 * null: nothing yet, the log's beginning. What a restart resumes from.
 */
export interface AuditPosition {
  at: number | null;
}

/** The feed as `roster doctor` tells it. */
export interface AuditFeedState {
  running: boolean;
  healthy: boolean;
  failing: boolean;
  behind: boolean;
  /** This server's time of the last read that reached the end of the log. */
  caughtUpAt: number | null;
  gaps: number;
  lastGap: { reason: string; at: number } | null;
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
  private readonly cursor = new AuditCursor(AUDIT_OVERLAP_MS);
  private readonly catalog: CatalogReloads;
  private caughtUpAt = Number.NEGATIVE_INFINITY;
  private failing = false;
  private stopped = false;
  private gaps = 0;
  private lastGap: AuditFeedState['lastGap'] = null;
  private anchoring: Promise<boolean> | null = null;
  private polling: Promise<AuditPass> | null = null;
  /** Where every entry was handled; null until the cursor is anchored or resumed. */
  private handled: AuditPosition | null = null;
  /**
   * Licenses whose re-read failed: tried again with the next read. Bounded by the members the
   * server holds (online players and the cache).
   */
  private readonly owed = new Set<string>();

  constructor(private readonly deps: AuditFeedDeps) {
    this.catalog = new CatalogReloads(deps.service, deps.clock);
  }

  /**
   * True while reads reach the end of the log on time: the full refresh of everyone can then be a
   * rare safety net. A feed paging through a backlog, or failing, is not.
   */
  get healthy(): boolean {
    return !this.stopped && this.deps.clock.now() - this.caughtUpAt < this.deps.intervalMs * 2.5;
  }

  get running(): boolean {
    return !this.stopped;
  }

  state(): AuditFeedState {
    const caughtUp = this.caughtUpAt > Number.NEGATIVE_INFINITY ? this.caughtUpAt : null;
    return {
      running: !this.stopped,
      healthy: this.healthy,
      failing: this.failing,
      behind: this.cursor.behind,
      caughtUpAt: caughtUp,
      gaps: this.gaps,
      lastGap: this.lastGap,
    };
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
    this.cursor.resume(position.at, this.deps.clock.now());
    this.handled = { at: this.cursor.position };
  }

  private async readOnce(): Promise<AuditPass> {
    const pass: AuditPass = { entries: 0, members: 0, catalog: false, behind: false };
    if (this.stopped) return pass;
    const entries = await this.read();
    if (entries === null) return pass;
    const now = this.deps.clock.now();
    const step = this.cursor.read(entries, entries.length >= this.deps.passSize, now);
    if (!step.behind) this.caughtUpAt = now;
    pass.behind = step.behind;
    if (step.gap !== null) this.gap(step.gap);
    pass.entries = step.fresh.length;
    if (step.fresh.length === 0 && this.owed.size === 0 && !this.catalog.pending) {
      this.handled = { at: this.cursor.position };
      return pass;
    }

    const { service } = this.deps;
    const matches = matchEntries(step.fresh, this.deps.players, this.deps.cache, service.catalog);
    if (matches.unreadable.length > 0) this.gap(unreadableReason(matches.unreadable));
    if (matches.catalog) this.catalog.ask();
    // Names first, so the members re-read below are shaped with the new department and rank names.
    pass.catalog = await this.catalog.runIfDue();
    const licenses = new Set([...this.owed, ...matches.licenses]);
    this.owed.clear();
    pass.members = licenses.size;
    for (const license of await service.refreshMembers(licenses)) this.owed.add(license);
    // Stamps read now, or the position before this read while a member it named is owed.
    if (this.owed.size === 0) this.handled = { at: this.cursor.position };
    return pass;
  }

  stop(): void {
    this.stopped = true;
  }

  /**
   * Anchors the cursor on the log as it stands (its newest entries), once; a read anchors first if
   * this did not. False when the service could not answer.
   */
  anchor(): Promise<boolean> {
    // Resumed from a saved position, or anchored already: nothing to ask.
    if (this.cursor.anchored) return Promise.resolve(true);
    this.anchoring ??= this.deps
      .newest()
      .then((newest) => {
        if (!this.cursor.anchored) {
          this.cursor.anchor(listOf(newest), this.deps.clock.now());
          this.handled = { at: this.cursor.position };
        }
        return true;
      })
      .catch((error: unknown) => {
        this.fail(error);
        return false;
      })
      .finally(() => {
        this.anchoring = null;
      });
    return this.anchoring;
  }

  /** The entries after the cursor (anchoring it first); null when the service could not answer. */
  private async read(): Promise<unknown[] | null> {
    if (!this.cursor.anchored && !(await this.anchor())) return null;
    try {
      const after = this.cursor.after();
      const entries = await this.deps.list({
        sort: 'createdAt',
        ...(after === undefined ? {} : { 'createdAt.after': after }),
      });
      if (this.failing)
        this.deps.logger.info('the audit log can be read again; changes reach players within a minute.');
      this.failing = false;
      return entries;
    } catch (error) {
      this.fail(error);
      return null;
    }
  }

  private gap(reason: string): void {
    this.gaps++;
    this.lastGap = { reason, at: this.deps.clock.now() };
    this.deps.logger.warn(
      `the audit log could not be read in full (${reason}); the members this server holds are read again.`,
    );
    this.deps.gap(reason);
  }

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof RosterServiceError && error.code === 'insufficient_scope') {
      this.stopped = true;
      this.deps.logger.warn(
        `the audit log cannot be read (${message}); online players are kept current by the periodic refresh alone.`,
      );
      return;
    }
    if (!this.failing) {
      this.deps.logger.warn(
        `the audit log could not be read: ${message}. The periodic refresh keeps players current until it can.`,
      );
    }
    this.failing = true;
  }
}

/** A list's data; anything else holds no entries. */
function listOf(data: unknown): unknown[] {
  return Array.isArray(data) ? data : [];
}

/** Entries skipped in one read, in a few words: the first three named, the rest counted. */
function unreadableReason(unreadable: readonly string[]): string {
  const more = unreadable.length > 3 ? ` and ${unreadable.length - 3} more` : '';
  return `skipped ${unreadable.slice(0, 3).join('; ')}${more}`;
}
