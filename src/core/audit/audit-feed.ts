import type { QueryValues } from '../api/roster-api';
import { RosterServiceError } from '../api/roster-api-error';
import type { PlayerRegistry } from '../players/player-registry';
import type { Clock, Logger } from '../ports';
import type { RosterService } from '../roster/roster-service';
import { AuditCursor } from './audit-cursor';
import { type MemberIndex, matchEntries } from './entry-matches';

export interface AuditFeedDeps {
  /** Every page of `GET /api/v1/audit-logs` with this query (the client follows `has_more`). */
  list(query: QueryValues): Promise<unknown[]>;
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
}

/** How far back each read starts before the latest entry seen (equal stamps, late commits, skew). */
export const AUDIT_OVERLAP_MS = 120_000;

/**
 * Catalog reloads the feed asks for are at most this far apart: a rank change of a member who is
 * not online names their rank too, and a busy dashboard must not cost two requests a minute.
 */
export const CATALOG_RELOAD_GAP_MS = 5 * 60_000;

/** What one read of the audit log did. */
export interface AuditPass {
  entries: number;
  /** Members (by license, online or not) re-read because an entry named them. */
  members: number;
  catalog: boolean;
}

/**
 * The audit log as a change feed: each read lists the entries since the last one seen and re-reads
 * just the members they name, online or held in the cache, in one batch: a member suspended while
 * offline is refused at their next join from the record re-read. An entry that names a department
 * or rank (and no member) reloads departments and ranks; any other costs nothing.
 */
export class AuditFeed {
  private readonly cursor: AuditCursor;
  private lastSuccess = Number.NEGATIVE_INFINITY;
  private failing = false;
  private catalogOwed = false;
  private lastCatalogReload = Number.NEGATIVE_INFINITY;
  private stopped = false;
  /**
   * Licenses whose re-read failed: tried again with the next read. Bounded by the members the
   * server holds (online players and the cache).
   */
  private readonly owed = new Set<string>();

  constructor(private readonly deps: AuditFeedDeps) {
    this.cursor = new AuditCursor(AUDIT_OVERLAP_MS);
  }

  /** True while reads succeed on time: the full refresh of everyone can then be a rare safety net. */
  get healthy(): boolean {
    return !this.stopped && this.deps.clock.now() - this.lastSuccess < this.deps.intervalMs * 2.5;
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** One read of the audit log; never throws. */
  async poll(): Promise<AuditPass> {
    const pass: AuditPass = { entries: 0, members: 0, catalog: false };
    if (this.stopped) return pass;
    let entries: unknown[];
    try {
      if (!this.cursor.anchored) this.cursor.anchor(listOf(await this.deps.newest()));
      const after = this.cursor.after();
      entries = await this.deps.list({
        sort: 'createdAt',
        ...(after === undefined ? {} : { 'createdAt.after': after }),
      });
    } catch (error) {
      this.fail(error);
      return pass;
    }
    if (this.failing)
      this.deps.logger.info('the audit log can be read again; changes reach players within a minute.');
    this.failing = false;
    this.lastSuccess = this.deps.clock.now();
    const fresh = this.cursor.read(entries);
    pass.entries = fresh.length;
    if (fresh.length === 0 && this.owed.size === 0 && !this.catalogOwed) return pass;

    const { service } = this.deps;
    const matches = matchEntries(fresh, this.deps.players, this.deps.cache, service.catalog);
    if (matches.catalog) this.catalogOwed = true;
    // Names first, so the members re-read below are shaped with the new department and rank names.
    const now = this.deps.clock.now();
    if (this.catalogOwed && now - this.lastCatalogReload >= CATALOG_RELOAD_GAP_MS) {
      pass.catalog = true;
      this.lastCatalogReload = now;
      this.catalogOwed = false;
      if (await service.loadCatalog(true)) service.reshapeOnline();
      else this.catalogOwed = true;
    }
    const licenses = new Set([...this.owed, ...matches.licenses]);
    this.owed.clear();
    pass.members = licenses.size;
    for (const license of await service.refreshMembers(licenses)) this.owed.add(license);
    return pass;
  }

  stop(): void {
    this.stopped = true;
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
