import type { QueryValues } from '../api/roster-api';
import { RosterServiceError } from '../api/roster-api-error';
import type { PlayerRegistry } from '../players/player-registry';
import type { Clock, Logger } from '../ports';
import type { RosterService } from '../roster/roster-service';
import { AuditCursor } from './audit-cursor';
import { entryValues } from './entry-values';

export interface AuditFeedDeps {
  /** Every page of `GET /api/v1/audit-logs` with this query (the client follows `has_more`). */
  list(query: QueryValues): Promise<unknown[]>;
  service: RosterService;
  players: PlayerRegistry;
  clock: Clock;
  logger: Logger;
  /** When the resource started: entries from then on matter. */
  startedAt: number;
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
  /** Online players re-read because an entry concerned them. */
  players: number;
  catalog: boolean;
}

/**
 * The audit log as a change feed: each read lists the entries since the last one seen and re-reads
 * just the online members they concern, in one batch. An entry concerns a member when any value in
 * it, at any depth, is the member's id or one of their assignments' ids; an entry that names a
 * department or rank (and no online member) reloads departments and ranks; any other costs nothing.
 */
export class AuditFeed {
  private readonly cursor: AuditCursor;
  private lastSuccess = Number.NEGATIVE_INFINITY;
  private failing = false;
  private catalogOwed = false;
  private lastCatalogReload = Number.NEGATIVE_INFINITY;
  private stopped = false;
  /** Players whose re-read failed: tried again with the next read. */
  private readonly owed = new Set<string>();

  constructor(private readonly deps: AuditFeedDeps) {
    this.cursor = new AuditCursor(deps.startedAt, AUDIT_OVERLAP_MS, () => deps.clock.now());
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
    const pass: AuditPass = { entries: 0, players: 0, catalog: false };
    if (this.stopped) return pass;
    let entries: unknown[];
    try {
      entries = await this.deps.list({ sort: 'createdAt', 'createdAt.after': this.cursor.after() });
    } catch (error) {
      this.fail(error);
      return pass;
    }
    if (this.failing)
      this.deps.logger.info('the audit log can be read again; changes reach players within a minute.');
    this.failing = false;
    this.lastSuccess = this.deps.clock.now();
    const fresh = entries.filter((entry) => this.cursor.accept(entry));
    this.cursor.prune();
    pass.entries = fresh.length;
    if (fresh.length === 0 && this.owed.size === 0 && !this.catalogOwed) return pass;

    const { service } = this.deps;
    const owners = this.ownersByValue();
    const concerned = new Set(this.owed);
    for (const entry of fresh) {
      let named = false;
      let catalogId = false;
      for (const value of entryValues(entry)) {
        const srcs = owners.get(value);
        if (srcs) {
          named = true;
          for (const src of srcs) concerned.add(src);
        } else if (service.catalog.departments.has(value) || service.catalog.rank(value)) {
          catalogId = true;
        }
      }
      // A rank change of an online member names their new rank too: their re-read covers it.
      if (catalogId && !named) this.catalogOwed = true;
    }
    // Names first, so the members re-read below are shaped with the new department and rank names.
    const now = this.deps.clock.now();
    if (this.catalogOwed && now - this.lastCatalogReload >= CATALOG_RELOAD_GAP_MS) {
      pass.catalog = true;
      this.lastCatalogReload = now;
      this.catalogOwed = false;
      if (await service.loadCatalog(true)) service.reshapeOnline();
      else this.catalogOwed = true;
    }
    this.owed.clear();
    pass.players = concerned.size;
    if (concerned.size > 0 && (await service.refreshPlayers(concerned)) === null) {
      for (const src of concerned) this.owed.add(src);
    }
    return pass;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Member ids and assignment ids of online players → their server ids. */
  private ownersByValue(): Map<string, string[]> {
    const owners = new Map<string, string[]>();
    const add = (value: string, src: string) => {
      const list = owners.get(value);
      if (list) list.push(src);
      else owners.set(value, [src]);
    };
    for (const [src, entry] of this.deps.players.onlinePlayers()) {
      if (!entry.view) continue;
      add(entry.view.member.id, src);
      for (const assignmentId of entry.view.assignments.values()) add(assignmentId, src);
    }
    return owners;
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
