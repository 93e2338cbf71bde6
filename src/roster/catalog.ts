import type { Clock } from '../platform/ports';
import { CatalogIndex } from './catalog-index';
import type { Catalog } from './model';
import type { RosterErrors } from './roster-errors';
import type { RosterSource } from './roster-source';

/** How long a failed first load of departments and ranks waits before it is tried again. */
const CATALOG_RETRY_MS = 60_000;
/**
 * How old departments and ranks another server read may be for a first load here: the periodic
 * reload (every 30 minutes, give or take a tenth) keeps them younger than this.
 */
export const SHARED_CATALOG_MS = 40 * 60_000;

/** Departments and ranks the servers on one key read once for all of them (through their database). */
export interface CatalogShare {
  /**
   * A catalog a server on the key read within `maxAgeMs`, and how long ago; `wait` gives the
   * server reading for this one a few seconds to. Null: read it here. Never rejects.
   */
  take(maxAgeMs: number, wait: boolean): Promise<{ catalog: Catalog; ageMs: number } | null>;
  /** What this server just read from the service, left for the others. */
  put(catalog: Catalog): void;
}

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
  /** When what is loaded was read from the service (this server's clock). */
  private readAt = -Infinity;
  private share: CatalogShare | null = null;
  private firstLoad: Promise<boolean> | null = null;
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

  /** From now on, departments and ranks another server on the key read are used before asking the service. */
  shareThrough(share: CatalogShare): void {
    this.share = share;
  }

  /**
   * Loads departments and ranks (`force`: reload even if recent). Until a first load succeeds it
   * is tried at most once a minute, so an outage or a missing scope does not cost every lookup.
   * A first load takes what another server on the key read lately, when the key is shared.
   */
  load(force = false): Promise<boolean> {
    if (force) return this.read(true);
    // Joins arriving together share the first load.
    this.firstLoad ??= this.read(false).finally(() => {
      this.firstLoad = null;
    });
    return this.firstLoad;
  }

  private async read(force: boolean): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!force && !this.loadedOnce && now - this.failedAt < CATALOG_RETRY_MS) return false;
    try {
      const shared = force || !this.share ? null : await this.share.take(SHARED_CATALOG_MS, true);
      if (shared) {
        this.install(shared.catalog, this.deps.clock.now() - shared.ageMs);
        return true;
      }
      const catalog = await this.deps.source.catalog(force ? { force } : undefined);
      this.install(catalog, now);
      this.share?.put(catalog);
      return true;
    } catch (error) {
      if (!this.loadedOnce) this.failedAt = this.deps.clock.now();
      this.deps.errors.note(error, 'could not load departments and ranks');
      return false;
    }
  }

  /**
   * The periodic reload: departments and ranks another server on the key read since these were
   * are taken instead, so the servers sharing a key read them once between them.
   */
  async refresh(): Promise<boolean> {
    const newer = this.loadedOnce ? await this.share?.take(this.deps.clock.now() - this.readAt, false) : null;
    if (!newer) return this.load(true);
    this.install(newer.catalog, this.deps.clock.now() - newer.ageMs);
    return true;
  }

  private install(catalog: Catalog, readAt: number): void {
    this.current = new CatalogIndex(catalog);
    this.readAt = readAt;
    const first = !this.loadedOnce;
    this.loadedOnce = true;
    this.deps.loaded?.(this.current);
    if (first) for (const listener of this.firstLoadListeners) listener();
  }
}
