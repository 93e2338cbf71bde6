/** Set-backs allowed per player within `WINDOW_MS` before job sync stops fighting. */
const LIMIT = 3;
const WINDOW_MS = 60_000;

/**
 * How often job sync may set a player's job back. Another resource that keeps setting a managed
 * job (a job script answering every job change with its own) would otherwise trade writes with
 * job sync forever, each answering the other's event. Past the limit the other side is left
 * alone until the player's next load or roster change, which starts afresh.
 */
export class SetBackBudget {
  private readonly times = new Map<string, number[]>();
  private readonly yielded = new Set<string>();

  /** Whether job sync has stopped setting this player back. */
  gaveUp(src: string): boolean {
    return this.yielded.has(src);
  }

  /** Counts one set-back at `now`; false (and from then on `gaveUp`) when it is one too many. */
  take(src: string, now: number): boolean {
    const recent = (this.times.get(src) ?? []).filter((t) => now - t < WINDOW_MS);
    if (recent.length >= LIMIT) {
      this.yielded.add(src);
      this.times.delete(src);
      return false;
    }
    recent.push(now);
    this.times.set(src, recent);
    return true;
  }

  /** A load or a roster change: the roster applies again, with a fresh budget. */
  reset(src: string): void {
    this.times.delete(src);
    this.yielded.delete(src);
  }
}
