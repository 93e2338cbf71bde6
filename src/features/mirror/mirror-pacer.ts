import type { LimiterState } from '../../http';
import type { Clock, TimerHandle } from '../../platform/ports';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** While joins wait, how often the pacer looks again whether they still do. */
const JOIN_RECHECK_MS = 100;
/**
 * How long joins must have stopped waiting before a read goes: a storm's joins are held a moment to
 * be sent together, and the instant between one batch leaving and the next player arriving is no
 * opening for the mirror.
 */
const JOINS_QUIET_MS = 250;
/**
 * The longest a read yields to joins, counted from when it was asked for. A server that always has
 * joins waiting still completes its mirror (one read this often, within the pace and the key's
 * half), and a complete mirror is what stops those joins costing requests.
 */
export const MAX_YIELD_MS = 10_000;

/** The pacer was stopped while a request waited for its turn. */
export class PacerStoppedError extends Error {
  constructor() {
    super('the roster mirror stopped');
    this.name = 'PacerStoppedError';
  }
}

/** What the pacer reads of the key and of the joins waiting on it, as the roster client knows them now. */
export type PacedKey = Pick<LimiterState, 'perMinute' | 'remainingThisMinute' | 'resetAt'> &
  Partial<Pick<LimiterState, 'keyUsedLastMinute'>> & {
    /**
     * Joins waiting on the rate limiter: join-lane requests queued for a permit and join lookups
     * held back to go out together. The mirror's reads wait while any does.
     */
    joinsWaiting: number;
  };

/**
 * Keeps the mirror's own requests to half of the key's minute, so joins and rank changes always
 * have the other half: at most `perMinute / 2` in any rolling 60 s, a short burst (a quarter of
 * that) and then evenly spaced. The rate limiter has no per-lane ceiling, so the mirror paces
 * itself, one request at a time. A request counts from when it settled: the next one can only be
 * sent after that, so no 60 s of sends ever holds more than the ceiling. Several servers share one
 * key, so it also waits while the key's minute, as the service counts it for all of them
 * (`X-RateLimit-Remaining` in its windows, pieced into the last 60 s), has less than half left:
 * four servers reading at once still leave half of the key to joins in any 60 s.
 *
 * Joins come first: while any waits on the rate limiter (and for a moment after), a read waits
 * too, so a storm during the first read is decided as fast as without the mirror. A read waits for
 * joins at most `MAX_YIELD_MS` after it was asked for, so the mirror is never starved for good.
 */
export class MirrorPacer {
  private readonly settled: number[] = [];
  private readonly waiting = new Map<TimerHandle, (error: Error) => void>();
  private day = -1;
  private spentToday = 0;
  private stopped = false;
  /** When joins were last seen waiting on the rate limiter. */
  private joinsSeenAt = Number.NEGATIVE_INFINITY;

  /** `key`: the key's minute as the rate limiter knows it now, with the service's own count. */
  constructor(
    private readonly clock: Clock,
    private readonly key: () => PacedKey,
  ) {}

  /** Requests the mirror sent today (UTC day of the clock). */
  get requestsToday(): number {
    return this.dayOf(this.clock.now()) === this.day ? this.spentToday : 0;
  }

  /** Today's count with its day (days since the epoch, UTC), for the snapshot. */
  get spent(): { day: number; requests: number } {
    return { day: this.dayOf(this.clock.now()), requests: this.requestsToday };
  }

  /** Takes back a count saved before a restart; another day's is left behind. */
  restoreSpent(spent: { day: number; requests: number }): void {
    if (spent.day !== this.dayOf(this.clock.now())) return;
    if (this.day !== spent.day) {
      this.day = spent.day;
      this.spentToday = 0;
    }
    this.spentToday += spent.requests;
  }

  /** Runs `request` once the pace allows it; it counts as one of the mirror's requests. */
  async run<T>(request: () => Promise<T>): Promise<T> {
    const askedAt = this.clock.now();
    for (let wait = this.waitMs(askedAt); wait > 0; wait = this.waitMs(askedAt)) await this.sleep(wait);
    if (this.stopped) throw new PacerStoppedError();
    try {
      return await request();
    } finally {
      this.count();
    }
  }

  /** Lets requests through again after `stop` (the mirror was turned on again). */
  resume(): void {
    this.stopped = false;
  }

  /** Ends every wait; requests waiting for their turn reject. */
  stop(): void {
    this.stopped = true;
    for (const [handle, reject] of this.waiting) {
      this.clock.clearTimeout(handle);
      reject(new PacerStoppedError());
    }
    this.waiting.clear();
  }

  /**
   * How long until one more request, asked for at `askedAt`, keeps within the pace and lets the
   * joins waiting go first; 0 when it may go now.
   */
  private waitMs(askedAt: number): number {
    const pace = this.paceWaitMs();
    if (pace > 0) return pace;
    return this.joinsWaitMs(askedAt);
  }

  /** While joins wait (and until they have stopped for a moment), within `MAX_YIELD_MS` of the ask. */
  private joinsWaitMs(askedAt: number): number {
    const now = this.clock.now();
    if (this.key().joinsWaiting > 0) this.joinsSeenAt = now;
    if (now - askedAt >= MAX_YIELD_MS) return 0;
    const quietAt = this.joinsSeenAt + JOINS_QUIET_MS;
    if (quietAt <= now) return 0;
    return Math.min(JOIN_RECHECK_MS, quietAt - now, askedAt + MAX_YIELD_MS - now);
  }

  /** How long until one more request keeps within the pace and the key's half; 0 when it may go now. */
  private paceWaitMs(): number {
    if (this.stopped) throw new PacerStoppedError();
    const now = this.clock.now();
    while (this.settled.length > 0 && now - this.settled[0]! >= MINUTE_MS) this.settled.shift();
    const key = this.key();
    const ceiling = Math.max(1, Math.floor(key.perMinute / 2));
    const burst = Math.max(1, Math.floor(ceiling / 4));
    const recent = this.settled.length;
    if (recent >= ceiling) return this.settled[recent - ceiling]! + MINUTE_MS - now;
    const spacing = MINUTE_MS / ceiling;
    // The key's half for joins, whoever spent the rest. In the last 60 s as the service counts the
    // key for every server on it, when its headers say: its fixed windows let servers that each
    // keep to half of one window spend the whole minute across a reset. Else within the window.
    if (key.keyUsedLastMinute !== undefined && key.keyUsedLastMinute !== null) {
      if (key.keyUsedLastMinute + 1 > ceiling) return spacing;
    } else if (key.remainingThisMinute - 1 < key.perMinute - ceiling) {
      return key.resetAt !== null && key.resetAt > now ? Math.min(key.resetAt - now, MINUTE_MS) : spacing;
    }
    if (recent < burst) return 0;
    return Math.max(0, this.settled[recent - 1]! + spacing - now);
  }

  private count(): void {
    const now = this.clock.now();
    this.settled.push(now);
    const day = this.dayOf(now);
    if (day !== this.day) {
      this.day = day;
      this.spentToday = 0;
    }
    this.spentToday++;
  }

  private dayOf(at: number): number {
    return Math.floor(at / DAY_MS);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const handle = this.clock.setTimeout(() => {
        this.waiting.delete(handle);
        resolve();
      }, ms);
      handle.unref?.();
      this.waiting.set(handle, reject);
    });
  }
}
