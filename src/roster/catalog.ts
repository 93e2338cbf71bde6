import type { Clock } from '../platform/ports';
import { CatalogIndex } from './catalog-index';
import type { RosterErrors } from './roster-errors';
import type { RosterSource } from './roster-source';

/** How long a failed first load of departments and ranks waits before it is tried again. */
const CATALOG_RETRY_MS = 60_000;

export interface RosterCatalogDeps {
  source: Pick<RosterSource, 'catalog'>;
  clock: Clock;
  errors: RosterErrors;
  /** Told each time departments and ranks are (re)loaded, e.g. to rebuild the rank principals. */
  loaded?(index: CatalogIndex): void;
}

/** The community's departments and ranks: loaded, reloaded when they change, indexed for lookups. */
export class RosterCatalog {
  private current = new CatalogIndex();
  private loadedOnce = false;
  private failedAt = -Infinity;
  private readonly firstLoadListeners: (() => void)[] = [];

  constructor(private readonly deps: RosterCatalogDeps) {}

  /** The departments and ranks as last loaded; empty until the first load. */
  get index(): CatalogIndex {
    return this.current;
  }

  /** True once departments and ranks were loaded: department names and rank ladders are known. */
  get ready(): boolean {
    return this.loadedOnce;
  }

  /** `listener` is called when the first load succeeds. */
  onFirstLoad(listener: () => void): void {
    this.firstLoadListeners.push(listener);
  }

  /**
   * Loads departments and ranks (`force`: reload even if recent). Until a first load succeeds it
   * is tried at most once a minute, so an outage or a missing scope does not cost every lookup.
   */
  async load(force = false): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!force && !this.loadedOnce && now - this.failedAt < CATALOG_RETRY_MS) return false;
    try {
      this.current = new CatalogIndex(await this.deps.source.catalog(force ? { force } : undefined));
      const first = !this.loadedOnce;
      this.loadedOnce = true;
      this.deps.loaded?.(this.current);
      if (first) for (const listener of this.firstLoadListeners) listener();
      return true;
    } catch (error) {
      if (!this.loadedOnce) this.failedAt = this.deps.clock.now();
      this.deps.errors.note(error, 'could not load departments and ranks');
      return false;
    }
  }
}
