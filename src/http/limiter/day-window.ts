import type { RateLimitInfo } from './rate-limit-headers';

/**
 * A window resetting farther ahead than this is not a minute's: a minute window resets within 60 s,
 * and this leaves room for a server clock a few minutes off the service's.
 */
export const MINUTE_WINDOW_REACH_MS = 5 * 60_000;

/** A day window resets within a day, and a little more for a clock that is off. */
const DAY_WINDOW_REACH_MS = 25 * 3_600_000;

/**
 * Whether an answer's `X-RateLimit-*` describe the key's day rather than its minute. The document
 * names one window, "the current window"; a service may send its day's (the one that binds once
 * the day has fewer requests left than the minute). Told apart by:
 * - the reset: more than `MINUTE_WINDOW_REACH_MS` ahead of the answer's own time (its `Date`,
 *   so a service clock minutes off ours misleads nothing), and within a day, is a day's;
 * - in the day's last minutes, when its reset is as close as a minute's, the ceiling: the day's
 *   (`dayLimit`, the one earlier day windows announced, else `rateLimit.perDay`), when it is above
 *   any minute's (`minuteLimit`, the per-minute limit configured).
 */
export function isDayWindow(
  info: RateLimitInfo,
  now: number,
  dayLimit: number | null,
  minuteLimit: number,
): boolean {
  if (info.remaining === undefined) return false;
  const resetIn = resetInMs(info, now);
  // Farther than a day is no day's window but a broken answer: its wait is bounded as any other.
  if (resetIn !== undefined && resetIn > MINUTE_WINDOW_REACH_MS) return resetIn <= DAY_WINDOW_REACH_MS;
  return info.limit !== undefined && dayLimit !== null && info.limit === dayLimit && info.limit > minuteLimit;
}

/** How far the window's reset is from the answer's time: as the service said it, else on our clock. */
export function resetInMs(info: RateLimitInfo, now: number): number | undefined {
  if (info.resetInMs !== undefined) return info.resetInMs;
  return info.resetAtMs === undefined ? undefined : info.resetAtMs - now;
}
