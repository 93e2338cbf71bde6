import { DAY_MS, DayTally, type SavedBucket } from './day-tally';
import { isDayWindow, resetInMs } from './day-window';
import { KeyPace } from './key-pace';
import type { Lane } from './lane';
import { DEFAULT_MAX_WAIT_MS, type RateLimitInfo } from './rate-limit-headers';

const MINUTE_MS = 60_000;

/**
 * Fractions of the day's ceiling that only more urgent lanes may use: when the day runs low,
 * background work (the mirror's full reads, new members) stops first, then refreshes and the
 * audit log, and joins keep the rest.
 */
export interface DayReserve {
  write?: number;
  refresh: number;
  background: number;
}

/** Background work stops with a quarter of the day left, refreshes and the audit log with a tenth. */
export const DEFAULT_DAY_RESERVE: DayReserve = { refresh: 0.1, background: 0.25 };

/** The service's day window as it last said it. */
interface ServiceDay {
  limit: number;
  /** What it said was left, less our own sends since. */
  remaining: number;
  resetAt: number;
  /** When an answer last said it (this server's clock). */
  heardAt: number;
}

export interface KeyDayOptions {
  /** `rateLimit.perDay`; null for no daily ceiling of our own. */
  perDay: number | null;
  reserve?: DayReserve;
  /** The per-minute limit configured: a day's ceiling is above it. */
  minuteLimit?: number;
  /**
   * The longest the service's day window holds a request back on its word alone
   * (`rateLimit.maxWaitSeconds`): then one request tries again, and its answer says it anew.
   */
  maxWaitMs?: number;
}

/** What the key's day looks like from this server, for `roster doctor`. */
export interface KeyDayReport {
  /** `rateLimit.perDay`, or null for no daily ceiling. */
  perDay: number | null;
  /** This server's requests in the rolling day, per lane (restarts included). */
  own: Record<Lane, number>;
  /** When the oldest request still counted was sent (5-minute grain); null when none is. */
  countedSince: number | null;
  /** The other servers' requests in the rolling day, as the service's minute windows show them; null when none was seen. */
  others: number | null;
  /**
   * The pace of the last hour (of this run, when younger), requests an hour: this server's, and
   * the other servers' as the minute windows showed them (null when none was seen).
   */
  pace: { own: number | null; others: number | null };
  /**
   * Today, since the key's day began (the service's day window's reset less a day, else midnight
   * UTC): this server's requests and the others' seen (null when no window was).
   */
  today: { since: number; own: number; others: number | null };
  /** The service's day window, when it sent one that is still current. */
  serviceDay: { limit: number; remaining: number; resetAt: number } | null;
}

/** What a restart keeps of the day. */
export interface SavedDay {
  buckets: SavedBucket[];
  serviceDay: { limit: number; remaining: number; resetAt: number } | null;
}

/**
 * The key's day as this server can know it, three ways, each with the lanes' reserves:
 * - its own requests in the rolling 24 h, kept across restarts, never more than `rateLimit.perDay`;
 * - the service's day window, where an answer's `X-RateLimit-*` describe it (`isDayWindow`): what
 *   it says is left until its reset, for every server on the key;
 * - otherwise its share: the key's requests in the rolling 24 h as the service's minute windows show
 *   them (the others' part estimated from what each window held by our answer), against
 *   `rateLimit.perDay`. An estimate, so it holds back only the lanes with a reserve; joins are
 *   stopped by counts alone.
 */
export class KeyDay {
  readonly perDay: number | null;
  private readonly minuteLimit: number;
  private readonly maxWaitMs: number;
  private readonly tally = new DayTally();
  private readonly floors: Record<Lane, number>;
  private service: ServiceDay | undefined;
  /** The day's ceiling as the service's day windows announced it. */
  private announcedDay: number | undefined;
  private readonly pace = new KeyPace();
  /** When a request went to ask the service again, its day window having held requests back too long. */
  private probeAt: number | undefined;
  /** The other servers' requests today, as they share them; null: not shared. */
  private fleetOthers: () => number | null = () => null;

  constructor(options: KeyDayOptions) {
    this.perDay = options.perDay;
    this.minuteLimit = options.minuteLimit ?? 120;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    const reserve = options.reserve ?? DEFAULT_DAY_RESERVE;
    const refresh = clamp(reserve.refresh);
    this.floors = {
      join: 0,
      write: Math.max(clamp(reserve.write ?? refresh), refresh),
      refresh,
      background: Math.max(clamp(reserve.background), refresh),
    };
  }

  /** The other servers' requests today as they share them (null to stop): counted against the day. */
  othersFromFleet(others: (() => number | null) | null): void {
    this.fleetOthers = others ?? (() => null);
  }

  /** Counts a request about to be sent. */
  onSend(lane: Lane, now: number): void {
    this.tally.record(lane, now);
    this.pace.onSend(now);
    const service = this.current(now);
    if (!service) return;
    service.remaining = Math.max(0, service.remaining - 1);
    if (now >= service.heardAt + this.maxWaitMs) this.probeAt = now;
  }

  /**
   * Reads an answer's rate-limit headers. True when they describe the day (then they say nothing
   * of the minute); a minute window's count shows what the other servers on the key sent in it.
   */
  heard(info: RateLimitInfo, now: number): boolean {
    this.probeAt = undefined;
    const dayLimit = this.announcedDay ?? this.perDay;
    if (isDayWindow(info, now, dayLimit, this.minuteLimit)) {
      this.heardDay(info, now);
      return true;
    }
    this.heardMinute(info, now);
    return false;
  }

  /** Milliseconds until a request in `lane` keeps within the day; 0 when it may go now. */
  waitMs(lane: Lane, now: number): number {
    const floor = this.floors[lane];
    const service = this.current(now);
    let wait = 0;
    if (this.perDay !== null) {
      const ceiling = this.perDay - Math.floor(this.perDay * floor);
      wait = this.tally.msUntilOwnBelow(ceiling, now);
      // Without the service's own count of the day, the share: the key's day as its minute windows
      // show it. An estimate, so never a join's wait.
      if (!service && lane !== 'join') wait = Math.max(wait, this.tally.msUntilKeyBelow(ceiling, now));
      // The others' counts shared: the fleet's day, counted, not estimated (joins included).
      const others = this.fleetOthers();
      if (others !== null && this.tally.own(now) + others >= ceiling) wait = Math.max(wait, MINUTE_MS);
    }
    if (service && service.remaining <= Math.floor(service.limit * floor)) {
      wait = Math.max(wait, this.serviceWaitMs(service, now));
    }
    return wait;
  }

  /** Requests left today: the fewer of our own ceiling's and the service's day window's; null without either. */
  remaining(now: number): number | null {
    const own = this.perDay === null ? null : Math.max(0, this.perDay - this.tally.own(now));
    const service = this.current(now);
    if (!service) return own;
    return own === null ? service.remaining : Math.min(own, service.remaining);
  }

  /** The daily ceiling in force: `rateLimit.perDay`, or the service's day when it says a lower one. */
  ceiling(now: number): number | null {
    const service = this.current(now);
    if (!service) return this.perDay;
    return this.perDay === null ? service.limit : Math.min(this.perDay, service.limit);
  }

  /**
   * How long the service's day window, with too little left for a lane, holds it: until the reset,
   * but on its word alone no longer than `maxWaitMs` after it was said. Then one request asks again
   * (a service that still has nothing left says so again), and the rest wait for its answer.
   */
  private serviceWaitMs(service: ServiceDay, now: number): number {
    const trustedUntil = service.heardAt + this.maxWaitMs;
    if (now < trustedUntil) return Math.min(service.resetAt, trustedUntil) - now;
    if (this.probeAt !== undefined && now < this.probeAt + this.maxWaitMs)
      return this.probeAt + this.maxWaitMs - now;
    return 0;
  }

  report(now: number): KeyDayReport {
    this.settle(now);
    const service = this.current(now);
    const since = service ? service.resetAt - DAY_MS : now - (now % DAY_MS);
    const today = this.tally.ownByLane(now, since);
    const countedSince = this.tally.firstAt(now);
    return {
      perDay: this.perDay,
      own: this.tally.ownByLane(now),
      countedSince,
      others: this.tally.others(now),
      pace: { own: this.pace.ownPerHour(now), others: this.pace.othersPerHour(now) },
      today: {
        since,
        own: today.join + today.write + today.refresh + today.background,
        others: this.tally.others(now, since),
      },
      serviceDay: service ? dayWindow(service) : null,
    };
  }

  saved(now: number): SavedDay {
    this.settle(now);
    const service = this.current(now);
    return { buckets: this.tally.saved(now), serviceDay: service ? dayWindow(service) : null };
  }

  /** Takes back the day a previous run saved (at start, before any request). */
  restore(saved: SavedDay, now: number): void {
    this.tally.restore(saved.buckets, now);
    const day = saved.serviceDay;
    if (day && day.resetAt > now && day.resetAt - now <= DAY_MS && !this.service) {
      this.service = { ...day, heardAt: now };
      this.announcedDay = day.limit;
    }
  }

  private heardDay(info: RateLimitInfo, now: number): void {
    const { limit, remaining } = info;
    if (limit === undefined || remaining === undefined) return;
    // A day window resets within a day; a later reset is taken as a day from now.
    const reset = now + Math.min(resetInMs(info, now) ?? DAY_MS, DAY_MS);
    this.announcedDay = limit;
    const current = this.current(now);
    // The same window (answers arrive out of order, and within a window the count only falls).
    if (current && Math.abs(current.resetAt - reset) <= MINUTE_MS) {
      current.remaining = Math.min(current.remaining, remaining);
      current.limit = limit;
      current.heardAt = now;
      return;
    }
    this.service = { limit, remaining, resetAt: reset, heardAt: now };
  }

  /**
   * A minute window the service named: by our answer the key had used `limit - remaining` of it, of
   * which ours are the sends since it began. The rest were the other servers'.
   */
  private heardMinute(info: RateLimitInfo, now: number): void {
    const { limit, remaining } = info;
    const resetIn = resetInMs(info, now);
    if (limit === undefined || remaining === undefined || resetIn === undefined) return;
    // The service describes its minute again, and its day was last said too long ago to hold: the
    // counts alone judge the day until it says the day again.
    const service = this.current(now);
    if (service && now >= service.heardAt + this.maxWaitMs) this.service = undefined;
    // On our clock: when the window began, as far before its reset as a minute.
    const reset = now + resetIn;
    const start = reset - MINUTE_MS;
    if (now < start || now >= reset) return;
    const others = Math.max(0, limit - remaining - this.pace.ownSince(start, now));
    const done = this.pace.see({ at: now, reset, others, spanMs: now - start });
    if (done) this.tally.seeOthers(done.at, done.others, done.spanMs);
  }

  /** The window seen last, once over, goes to the day's tally. */
  private settle(now: number): void {
    const done = this.pace.settle(now);
    if (done) this.tally.seeOthers(done.at, done.others, done.spanMs);
  }

  private current(now: number): ServiceDay | undefined {
    if (this.service && now >= this.service.resetAt) this.service = undefined;
    return this.service;
  }
}

function clamp(fraction: number): number {
  return Math.min(1, Math.max(0, fraction));
}

function dayWindow(service: ServiceDay): { limit: number; remaining: number; resetAt: number } {
  return { limit: service.limit, remaining: service.remaining, resetAt: service.resetAt };
}
