import type { RequestExecutor } from '../../http';
import { errorMessage } from '../../platform/error-message';
import type { Clock, Logger } from '../../platform/ports';
import type { Catalog } from '../model';
import { listPages } from './list-pages';
import { parseRecords } from './parse-records';
import { departmentSchema, rankSchema } from './record-schemas';
import { ROSTER_ROUTES } from './routes';

export interface CatalogLoaderOptions {
  executor: RequestExecutor;
  clock: Clock;
  logger: Logger;
  /** How long a loaded catalog is used before it is loaded again. Default 30 minutes. */
  maxAgeMs?: number;
}

/** 2,000 departments or ranks: far more than any community; past that the paging is broken. */
const CATALOG_PAGES = 20;
/**
 * Departments and ranks, loaded once and reloaded rarely in the background lane. Concurrent
 * callers share one load; when a reload fails the last catalog is kept.
 */
export class CatalogLoader {
  private current: { catalog: Catalog; loadedAt: number } | undefined;
  private loading: Promise<Catalog> | undefined;
  private readonly maxAgeMs: number;

  constructor(private readonly options: CatalogLoaderOptions) {
    this.maxAgeMs = options.maxAgeMs ?? 30 * 60_000;
  }

  get(force = false): Promise<Catalog> {
    const now = this.options.clock.now();
    if (!force && this.current && now - this.current.loadedAt < this.maxAgeMs) {
      return Promise.resolve(this.current.catalog);
    }
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<Catalog> {
    const { executor, logger, clock } = this.options;
    try {
      const query = new URLSearchParams();
      // The first load has lookups waiting on it; later reloads are background work.
      const lane = this.current ? 'background' : 'join';
      const [departments, ranks] = await Promise.all([
        listPages(executor, ROSTER_ROUTES.departments, query, { lane, maxPages: CATALOG_PAGES }),
        listPages(executor, ROSTER_ROUTES.ranks, query, { lane, maxPages: CATALOG_PAGES }),
      ]);
      const catalog: Catalog = {
        departments: parseRecords(departments, departmentSchema, 'department', logger),
        ranks: parseRecords(ranks, rankSchema, 'rank', logger),
      };
      this.current = { catalog, loadedAt: clock.now() };
      return catalog;
    } catch (error) {
      if (!this.current) throw error;
      // Try again in a minute rather than on every call.
      this.current.loadedAt = clock.now() - this.maxAgeMs + 60_000;
      logger.warn(`Could not reload departments and ranks; keeping the last ones. ${errorMessage(error)}`);
      return this.current.catalog;
    }
  }
}
