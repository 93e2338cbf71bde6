import type { Clock } from '../../platform/ports';

export interface RateLimiterOptions {
  /** Never more than this many requests in any rolling 60 s. */
  perMinute: number;
  /** Never more than this many in any rolling 24 h; null or absent for no daily ceiling. */
  perDay?: number | null;
  clock: Clock;
  /**
   * Requests that may go at once while the recent minute is quiet. Default a quarter of perMinute
   * (at least 1); the rest of the minute is paced evenly once the burst is spent.
   */
  burst?: number;
  /**
   * Fractions of the daily budget that only more urgent lanes may use, so that when the day runs
   * low background work stops first and joins keep their share. Default refresh 0.1, background
   * 0.25; writes (rank changes) default to refresh's and never go below it: a write never spends
   * what is kept for joins.
   */
  dayReserve?: { write?: number; refresh: number; background: number };
  /**
   * The longest the service's word alone holds requests back (`rateLimit.maxWaitSeconds`): its day
   * window saying nothing is left stops requests no longer than this before one asks again.
   * Default five minutes.
   */
  maxWaitMs?: number;
  /** Pause after a 429 that says neither Retry-After nor X-RateLimit-Reset. Default 30 s. */
  defaultPauseMs?: number;
}
