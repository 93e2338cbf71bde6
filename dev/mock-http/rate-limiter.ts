/**
 * Per-bucket budgets in fixed windows: calendar minutes and UTC days of the injected clock (a
 * budget without a day limit gives `perDay: Infinity`). Fixed windows match a "window reset time"
 * header. A request refused with 429 does not use up budget; every other request taken does.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface Budget {
  perMinute: number;
  perDay: number;
}

/** What goes into the X-RateLimit-* headers (and Retry-After when refused). */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the reported window resets. */
  reset: number;
  /** Seconds to wait; only when refused. */
  retryAfter: number | null;
}

interface Usage {
  minute: number;
  minuteCount: number;
  day: number;
  dayCount: number;
}

export class RateLimiter {
  private readonly usage = new Map<string, Usage>();

  constructor(private readonly now: () => number) {}

  /** Counts one request against the bucket unless it is over budget. */
  take(bucket: string, budget: Budget): RateDecision {
    return this.decide(bucket, budget, true);
  }

  /** The bucket's state without counting a request (for forced 429s and requests that skip the limiter). */
  peek(bucket: string, budget: Budget): RateDecision {
    return this.decide(bucket, budget, false);
  }

  reset(): void {
    this.usage.clear();
  }

  private decide(bucket: string, budget: Budget, consume: boolean): RateDecision {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    let usage = this.usage.get(bucket);
    if (!usage) {
      usage = { minute, minuteCount: 0, day, dayCount: 0 };
      this.usage.set(bucket, usage);
    }
    if (usage.minute !== minute) Object.assign(usage, { minute, minuteCount: 0 });
    if (usage.day !== day) Object.assign(usage, { day, dayCount: 0 });

    const minuteFull = usage.minuteCount >= budget.perMinute;
    const dayFull = usage.dayCount >= budget.perDay;
    const allowed = !minuteFull && !dayFull;
    if (allowed && consume) {
      usage.minuteCount++;
      usage.dayCount++;
    }
    const minuteLeft = Math.max(0, budget.perMinute - usage.minuteCount);
    const dayLeft = Math.max(0, budget.perDay - usage.dayCount);
    const minuteReset = (minute + 1) * MINUTE_MS;
    const dayReset = (day + 1) * DAY_MS;
    // Report whichever window binds first: the day once it has fewer requests left than the minute.
    const useDay = dayLeft < minuteLeft || dayFull;
    const resetMs = useDay ? dayReset : minuteReset;
    return {
      allowed,
      limit: useDay ? budget.perDay : budget.perMinute,
      remaining: useDay ? dayLeft : minuteLeft,
      reset: Math.ceil(resetMs / 1000),
      retryAfter: allowed ? null : Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}

/** `X-RateLimit-*` of the window `rate` describes, and `Retry-After` when `retryAfter` is set. */
export function rateHeaders(rate: RateDecision, retryAfter: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.reset),
  };
  if (retryAfter !== null) headers['Retry-After'] = String(retryAfter);
  return headers;
}
