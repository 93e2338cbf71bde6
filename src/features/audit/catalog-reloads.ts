import type { Clock } from '../../platform/ports';
import type { RosterCatalog } from '../../roster/catalog';
import type { OnlinePlayers } from '../../roster/online-players';

/**
 * Catalog reloads the feed asks for are at most this far apart: a rank change of a member who is
 * not online names their rank too, and a busy dashboard must not cost two requests a minute.
 */
export const CATALOG_RELOAD_GAP_MS = 5 * 60_000;

/** Departments and ranks read again because entries named them: spaced out, never forgotten. */
export class CatalogReloads {
  private owed = false;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly catalog: Pick<RosterCatalog, 'load'>,
    private readonly online: Pick<OnlinePlayers, 'reshapeOnline'>,
    private readonly clock: Clock,
  ) {}

  ask(): void {
    this.owed = true;
  }

  get pending(): boolean {
    return this.owed;
  }

  /**
   * Reloads when one is owed and the last is far enough back; online players are shaped again
   * with the new names. True when a reload was tried.
   */
  async runIfDue(): Promise<boolean> {
    const now = this.clock.now();
    if (!this.owed || now - this.last < CATALOG_RELOAD_GAP_MS) return false;
    this.last = now;
    this.owed = false;
    if (await this.catalog.load(true)) this.online.reshapeOnline();
    else this.owed = true;
    return true;
  }
}
