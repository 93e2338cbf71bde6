import { fx } from './fx';
import { serverVersion } from './pool';

// Read once at start, as oxmysql does.
const OVERSIZED = fx.GetConvarInt('mysql_resultset_warning', 1000);

/**
 * oxmysql's slow-query line (src/logger/index.ts logQuery): a statement that took at least
 * `mysql_slow_query_warning` ms (200 by default) is printed **with its parameters**.
 */
export function noteDuration(resource: string | null, query: string, ms: number, params?: unknown): void {
  if (ms < fx.GetConvarInt('mysql_slow_query_warning', 200)) return;
  const shown = params ? ` ${JSON.stringify(params)}` : '';
  console.log(
    `${serverVersion()} ^3${resource} took ${ms.toFixed(4)}ms to execute a query!\n${query}${shown}^0`,
  );
}

/** A result of `mysql_resultset_warning` rows or more (1000 by default) is warned about. */
export function noteSize(resource: string | null, query: string, result: unknown): void {
  const rows = Array.isArray(result) ? result.length : 0;
  if (rows < OVERSIZED) return;
  console.warn(`${resource} executed a query with an oversized result set (${rows} results)!\n${query}`);
}
