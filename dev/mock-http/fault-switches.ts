/** 500 answers with the mock's `internal` error; 502/503 come "from a proxy in front" as an HTML page. */
export type FailureStatus = 500 | 502 | 503;

/** How often a counted fault fires: a number of requests, or `Infinity` until cleared. */
type Count = number;

/**
 * The faults every mock offers, switched on at run time by a test. Counted faults fire on the next
 * N requests that reach them; the rest stay on until turned off or `clear()`. Each mock extends it
 * with its own switches (keys, plan, flags…) and clears those in an override of `clear()`.
 */
export class FaultSwitches {
  latencyMs = 0;
  private failures: { remaining: Count; status: FailureStatus; path: string | null } = {
    remaining: 0,
    status: 503,
    path: null,
  };
  private malformed: Count = 0;
  private drops: Count = 0;
  private forced429: { remaining: Count; retryAfter: number | null } = { remaining: 0, retryAfter: 1 };
  private hung = false;
  private echoes: Count = 0;
  private huge: { remaining: Count; bytes: number } = { remaining: 0, bytes: 0 };
  /** While set, every answer's `X-RateLimit-Reset` is this text (e.g. `9999999999`). */
  resetOverride: string | null = null;
  /** While true, every list says there is another page (`has_more`, `next_page`). */
  endlessPages = false;
  private readonly hungWaiters = new Set<() => void>();
  /** Paths (e.g. `/api/v1/department-assignments`) whose every request fails (500) or hangs. */
  private readonly pathFaults = new Map<string, 'internal' | 'hang'>();
  private readonly pathWaiters = new Set<() => void>();

  /** Delays every response by `ms` (real time: it is meant for client timeouts). */
  latency(ms: number): this {
    this.latencyMs = Math.max(0, ms);
    return this;
  }

  /**
   * The next `count` requests fail: 500 = the `internal` error, 502/503 = a proxy's HTML page.
   * With `path`, only requests to that path count, so other requests in flight cannot use them up.
   */
  failNext(count: Count, status: FailureStatus = 503, path: string | null = null): this {
    this.failures = { remaining: count, status, path };
    return this;
  }

  /** Every request (or the next `count`) fails with 500 `internal`. */
  internal(count: Count = Number.POSITIVE_INFINITY): this {
    return this.failNext(count, 500);
  }

  /**
   * Every request to `path` fails with 500 `internal`, or hangs, until `clear()` (hung requests
   * are then answered); other paths answer as usual.
   */
  failPath(path: string, how: 'internal' | 'hang' = 'internal'): this {
    this.pathFaults.set(path, how);
    return this;
  }

  /** The next `count` JSON responses are cut in half (status and headers unchanged). */
  malformedJson(count: Count = Number.POSITIVE_INFINITY): this {
    this.malformed = count;
    return this;
  }

  /** The next `count` connections are destroyed without any response. */
  dropConnection(count: Count = 1): this {
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

  /** The next `count` keyed requests get 429 rate_limited; `retryAfter: null` leaves Retry-After out. */
  rateLimit(count: Count = 1, options: { retryAfter?: number | null } = {}): this {
    this.forced429 = {
      remaining: count,
      retryAfter: options.retryAfter === undefined ? 1 : options.retryAfter,
    };
    return this;
  }

  /**
   * The next `count` requests get a proxy's plain-text 400 page quoting the request's headers,
   * credentials included, as a misconfigured proxy or debug page would.
   */
  echoCredentials(count: Count = Number.POSITIVE_INFINITY): this {
    this.echoes = count;
    return this;
  }

  /** The next `count` requests get a 200 JSON body of `bytes` bytes, streamed (e.g. 400 MB). */
  hugeBody(count: Count = Number.POSITIVE_INFINITY, bytes = 400 * 1024 * 1024): this {
    this.huge = { remaining: count, bytes };
    return this;
  }

  /** Every answer's `X-RateLimit-Reset` reads `value` (`9999999999`: the year 2286; `999999999`: a 31-year delta). */
  farReset(value: string | null = '9999999999'): this {
    this.resetOverride = value;
    return this;
  }

  /** Every list says another page follows, forever. */
  endless(on = true): this {
    this.endlessPages = on;
    return this;
  }

  /** Turns these faults off and releases hung requests (they are then answered normally). */
  clear(): this {
    this.pathFaults.clear();
    for (const resolve of this.pathWaiters) resolve();
    this.pathWaiters.clear();
    this.echoes = 0;
    this.huge = { remaining: 0, bytes: 0 };
    this.resetOverride = null;
    this.endlessPages = false;
    this.latencyMs = 0;
    this.failures = { remaining: 0, status: 503, path: null };
    this.malformed = 0;
    this.drops = 0;
    this.forced429 = { remaining: 0, retryAfter: 1 };
    return this.hang(false);
  }

  // The pipeline consumes faults through the methods below.

  takeDrop(): boolean {
    if (this.drops <= 0) return false;
    this.drops--;
    return true;
  }

  /** The failure status for this request, if one is due at this stage (gateway or service). */
  takeFailure(stage: 'gateway' | 'service', path: string): FailureStatus | null {
    const isGateway = this.failures.status !== 500;
    if (this.failures.remaining <= 0 || isGateway !== (stage === 'gateway')) return null;
    if (this.failures.path !== null && this.failures.path !== path) return null;
    this.failures.remaining--;
    return this.failures.status;
  }

  /**
   * The faults of the service itself, once a request got past the transport, the key and the
   * limits: rejects (answered as `internal`) when a 500 is due or the path fails, waits while the
   * path hangs, else resolves at once.
   */
  async atService(path: string): Promise<void> {
    if (this.takeFailure('service', path) === 500 || this.pathFaults.get(path) === 'internal')
      throw new Error('injected internal fault');
    if (this.pathFaults.get(path) === 'hang')
      await new Promise<void>((resolve) => this.pathWaiters.add(resolve));
  }

  takeEcho(): boolean {
    if (this.echoes <= 0) return false;
    this.echoes--;
    return true;
  }

  /** The size of a huge body due now, if one is. */
  takeHugeBody(): number | null {
    if (this.huge.remaining <= 0) return null;
    this.huge.remaining--;
    return this.huge.bytes;
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

  /** Null when not hanging, else a promise that resolves when the hang is lifted (never, if the server closes first). */
  waitWhileHung(): Promise<void> | null {
    if (!this.hung) return null;
    return new Promise((resolve) => this.hungWaiters.add(resolve));
  }

  get hungCount(): number {
    return this.hungWaiters.size;
  }
}
