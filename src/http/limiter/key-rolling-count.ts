const MINUTE_MS = 60_000;
/** Windows longer than this (a daily count) say nothing about the key's minute. */
const LONGEST_WINDOW_MS = 2 * MINUTE_MS;

interface Point {
  at: number;
  /** The window the count belongs to: its reset time. */
  window: number;
  /** Requests the key had spent in that window by `at`, every server on it counted. */
  used: number;
}

/**
 * The key's requests in the last 60 s, every server sharing it counted, pieced together from what
 * the service says of its own windows (`X-RateLimit-Limit` less `X-RateLimit-Remaining`, until
 * `X-RateLimit-Reset`). The service counts fixed windows, so servers that each keep within one
 * window can still send twice the minute across a reset; this sees across it. A window's count
 * from before the last 60 s is known only as far as an answer then said it: when none did, all
 * of it is taken as recent, so the count errs high, never low.
 */
export class KeyRollingCount {
  private readonly points: Point[] = [];

  /** What an answer (or our own send, counted at once) says the window holds now. */
  record(at: number, window: number, used: number): void {
    if (window - at > LONGEST_WINDOW_MS || used < 0) return;
    this.points.push({ at, window, used });
    while (this.points.length > 0 && at - this.points[0]!.at > 2 * MINUTE_MS) this.points.shift();
  }

  /** True when an answer named this window (our own sends count only in windows the service named). */
  knows(window: number): boolean {
    return this.points.some((point) => point.window === window);
  }

  /** The key's requests in the 60 s before `now`; undefined while the service said nothing lately. */
  lastMinute(now: number): number | undefined {
    const from = now - MINUTE_MS;
    const windows = new Map<number, { all: number; before: number; recent: boolean }>();
    for (const point of this.points) {
      const w = windows.get(point.window) ?? { all: 0, before: 0, recent: false };
      w.all = Math.max(w.all, point.used);
      if (point.at <= from) w.before = Math.max(w.before, point.used);
      else w.recent = true;
      windows.set(point.window, w);
    }
    let used: number | undefined;
    for (const w of windows.values()) {
      if (w.recent) used = (used ?? 0) + Math.max(0, w.all - w.before);
    }
    return used;
  }
}
