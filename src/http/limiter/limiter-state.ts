import type { Lane } from './lane';

/** A snapshot of the rate limiter, for status output and for telling a player how long they wait. */
export interface LimiterState {
  /** The per-minute ceiling in force: the configured one, or the service's lower one. */
  perMinute: number;
  /** The daily ceiling, or null when the service has none. */
  perDay: number | null;
  /** Requests still allowed in the rolling minute (the service's own count when that is lower). */
  remainingThisMinute: number;
  /** Requests still allowed in the rolling day, or null without a daily ceiling. */
  remainingToday: number | null;
  /**
   * The key's requests in the last 60 s as the service counts them for every server sharing it,
   * when its headers say; null when they do not.
   */
  keyUsedLastMinute: number | null;
  /** When the service's current window resets (epoch ms), when known. */
  resetAt: number | null;
  /** Every lane is stopped until this time (epoch ms) after a 429, or null. */
  pausedUntil: number | null;
  /** Requests waiting, per lane. */
  queued: Record<Lane, number>;
}
