import type { LearningKey } from './api-keys';
import type { FlagName, LearningOrg } from './records';

type FailureStatus = 500 | 502 | 503;

/**
 * Faults and run-time switches a test turns on. Counted faults fire on the next N requests that
 * reach them (`Infinity` = until cleared); the rest stay on until turned off or `clear()`.
 */
export class LearningFaults {
  latencyMs = 0;
  /** Per-key (per-address without a key) limit per calendar minute; null = no limit. */
  perMinuteLimit: number | null;
  /** Default page size of the completion lists; null = whole lists. */
  pageSize: number | null;
  private failures: { remaining: number; status: FailureStatus } = { remaining: 0, status: 503 };
  private malformed = 0;
  private drops = 0;
  private forced429: { remaining: number; retryAfter: number | null } = { remaining: 0, retryAfter: 1 };
  private hung = false;
  private readonly hungWaiters = new Set<() => void>();

  constructor(
    private readonly keys: readonly LearningKey[],
    private readonly org: LearningOrg,
    settings: { perMinute: number | null; pageSize: number | null },
  ) {
    this.perMinuteLimit = settings.perMinute;
    this.pageSize = settings.pageSize;
  }

  /** Delays every response by `ms` (real time: meant for client timeouts). */
  latency(ms: number): this {
    this.latencyMs = Math.max(0, ms);
    return this;
  }

  /** The next `count` requests fail: 500 = `internal` envelope, 502/503 = a proxy's HTML page. */
  failNext(count: number, status: FailureStatus = 503): this {
    this.failures = { remaining: count, status };
    return this;
  }

  /** The next `count` JSON responses are cut in half (status and headers unchanged). */
  malformedJson(count = Number.POSITIVE_INFINITY): this {
    this.malformed = count;
    return this;
  }

  /** The next `count` connections are destroyed without a response. */
  dropConnection(count = 1): this {
    this.drops = count;
    return this;
  }

  /** Requests are accepted and never answered until `hang(false)`, `clear()` or `close()`. */
  hang(on = true): this {
    this.hung = on;
    if (!on) {
      for (const resolve of this.hungWaiters) resolve();
      this.hungWaiters.clear();
    }
    return this;
  }

  /** The next `count` keyed requests get 429; `retryAfter: null` leaves Retry-After out. */
  rateLimit(count = 1, options: { retryAfter?: number | null } = {}): this {
    this.forced429 = {
      remaining: count,
      retryAfter: options.retryAfter === undefined ? 1 : options.retryAfter,
    };
    return this;
  }

  perMinute(limit: number | null): this {
    this.perMinuteLimit = limit;
    return this;
  }

  paging(pageSize: number | null): this {
    this.pageSize = pageSize;
    return this;
  }

  /** The key fails with 401 from its next request (stays so after `clear()`). */
  revokeKey(nameOrPrefix: string): this {
    const key = this.keys.find((k) => k.name === nameOrPrefix || k.prefix === nameOrPrefix);
    if (!key) throw new Error(`mock learning: no key ${nameOrPrefix}`);
    key.revoked = true;
    return this;
  }

  flag(name: FlagName, on: boolean): this {
    this.org.flags[name] = on;
    return this;
  }

  flagOff(name: FlagName): this {
    return this.flag(name, false);
  }

  /** Every fault off, hung requests released, every flag back on. Revoked keys stay revoked. */
  clear(): this {
    this.latencyMs = 0;
    this.failures = { remaining: 0, status: 503 };
    this.malformed = 0;
    this.drops = 0;
    this.forced429 = { remaining: 0, retryAfter: 1 };
    this.org.flags = { discord: true, gamification: true, api_access: true };
    return this.hang(false);
  }

  // The pipeline consumes faults through the methods below.

  takeDrop(): boolean {
    if (this.drops <= 0) return false;
    this.drops--;
    return true;
  }

  takeFailure(stage: 'gateway' | 'service'): FailureStatus | null {
    const isGateway = this.failures.status !== 500;
    if (this.failures.remaining <= 0 || isGateway !== (stage === 'gateway')) return null;
    this.failures.remaining--;
    return this.failures.status;
  }

  takeMalformed(): boolean {
    if (this.malformed <= 0) return false;
    this.malformed--;
    return true;
  }

  takeForced429(): { retryAfter: number | null } | null {
    if (this.forced429.remaining <= 0) return null;
    this.forced429.remaining--;
    return { retryAfter: this.forced429.retryAfter };
  }

  /** Null when not hanging, else a promise that resolves when the hang is lifted. */
  waitWhileHung(): Promise<void> | null {
    if (!this.hung) return null;
    return new Promise((resolve) => this.hungWaiters.add(resolve));
  }

  get hungCount(): number {
    return this.hungWaiters.size;
  }
}
