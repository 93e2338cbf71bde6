/** How a join's `gate.timeoutSeconds` is shared between the lookup, further checks and `done`. */

/**
 * When the watchdog decides, before `gate.timeoutSeconds`: a tenth of it, kept between 0.3 s and
 * 1 s, so `done` lands in time (a few server ticks) without taking most of a short deadline.
 */
export function watchdogAfterMs(timeoutMs: number): number {
  return timeoutMs - Math.min(1000, Math.max(300, timeoutMs * 0.1));
}

/**
 * How long before the watchdog a further check must have answered, so its own outage rule decides:
 * 0.25 s, or a sixth of a short watchdog time.
 */
export function checkMarginMs(watchdogMs: number): number {
  return Math.min(250, Math.floor(watchdogMs / 6));
}
