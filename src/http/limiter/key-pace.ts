const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** A window seen over less than this says too little of the others' pace. */
const SHORTEST_SPAN_MS = MINUTE_MS / 6;

/** One of the service's minute windows as our last answer in it showed it. */
export interface SeenWindow {
  /** When our answer came (this server's clock). */
  at: number;
  /** When the window resets (this server's clock). */
  reset: number;
  /** The other servers' requests in it by then. */
  others: number;
  /** How much of the window had passed by then. */
  spanMs: number;
}

/**
 * The key's pace over the last hour: this server's own sends, and the other servers' as the
 * service's minute windows showed them. A window counts what the key used from its start to our
 * answer; less our own sends over that span, the rest are the others'. Their pace is what they
 * sent over the spans seen, so a window seen early counts as little time as it saw.
 */
export class KeyPace {
  /** Our sends of the last hour, oldest first. */
  private readonly sends: number[] = [];
  private readonly windows: SeenWindow[] = [];
  /** The window seen last: a later answer in it may show more of it. */
  private open: SeenWindow | undefined;
  private firstSendAt: number | undefined;

  onSend(now: number): void {
    this.firstSendAt ??= now;
    this.sends.push(now);
    while (this.sends.length > 0 && now - this.sends[0]! > HOUR_MS) this.sends.shift();
  }

  /** Our sends from `from` to `now`. */
  ownSince(from: number, now: number): number {
    let low = 0;
    let high = this.sends.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.sends[middle]! < from) low = middle + 1;
      else high = middle;
    }
    let count = 0;
    for (let i = low; i < this.sends.length && this.sends[i]! <= now; i++) count++;
    return count;
  }

  /** When this run first sent; undefined before it did. */
  get startedAt(): number | undefined {
    return this.firstSendAt;
  }

  /**
   * A minute window as an answer shows it. Returns the window seen before it once this one is
   * another (it will show no more), for the day's tally.
   */
  see(window: SeenWindow): SeenWindow | undefined {
    const open = this.open;
    // The same window again (the `Date` header's whole seconds move its reset by one).
    if (open && Math.abs(open.reset - window.reset) <= 2000) {
      if (window.spanMs >= open.spanMs) this.open = window;
      return undefined;
    }
    this.open = window;
    return open && this.keep(open);
  }

  /** The window seen last, once it is over; undefined while it is not. */
  settle(now: number): SeenWindow | undefined {
    const open = this.open;
    if (!open || now < open.reset) return undefined;
    this.open = undefined;
    return this.keep(open);
  }

  /** The others' requests an hour at the pace the windows of the last hour showed; null when none was seen. */
  othersPerHour(now: number): number | null {
    let others = 0;
    let span = 0;
    const seen = this.open ? [...this.windows, this.open] : this.windows;
    for (const window of seen) {
      if (now - window.at > HOUR_MS || window.spanMs < SHORTEST_SPAN_MS) continue;
      others += window.others;
      span += Math.min(window.spanMs, MINUTE_MS);
    }
    return span === 0 ? null : (others * HOUR_MS) / span;
  }

  /** Our own requests an hour since this run began (at most the last hour); null before any. */
  ownPerHour(now: number): number | null {
    if (this.firstSendAt === undefined) return null;
    const over = Math.min(HOUR_MS, Math.max(MINUTE_MS / 60, now - this.firstSendAt));
    return (this.ownSince(now - over, now) * HOUR_MS) / over;
  }

  private keep(window: SeenWindow): SeenWindow {
    this.windows.push(window);
    while (this.windows.length > 0 && window.at - this.windows[0]!.at > HOUR_MS) this.windows.shift();
    return window;
  }
}
