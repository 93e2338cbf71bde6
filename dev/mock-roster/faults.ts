import type { ApiKeyRecord } from './api-keys';
import type { MockCommunity } from './records';

/** 500 answers with the `internal` envelope; 502/503 come "from a proxy in front" as an HTML page. */
export type FailureStatus = 500 | 502 | 503;

/** How often a counted fault fires: a number of requests, or `Infinity` until cleared. */
type Count = number;

/**
 * Faults a test (or `POST /__mock/faults`) switches on at run time. Counted faults fire on the
 * next N requests that reach them; the rest stay on until turned off or `clear()`.
 */
export class MockFaults {
  latencyMs = 0;
  private failures: { remaining: Count; status: FailureStatus } = { remaining: 0, status: 503 };
  private malformed: Count = 0;
  private drops: Count = 0;
  private forced429: { remaining: Count; retryAfter: number | null } = { remaining: 0, retryAfter: 1 };
  private hung = false;
  private readonly hungWaiters = new Set<() => void>();
  /** While true every caller address is treated as off every key's allowlist. */
  ipRefused = false;
  /** While true member records carry `departmentAssignments` (with `rank`) inline. */
  inline: boolean;

  constructor(
    private readonly keys: readonly ApiKeyRecord[],
    private readonly community: MockCommunity,
    inlineAssignments: boolean,
  ) {
    this.inline = inlineAssignments;
  }

  /** Delays every response by `ms` (real time: it is meant for client timeouts). */
  latency(ms: number): this {
    this.latencyMs = Math.max(0, ms);
    return this;
  }

  /** The next `count` requests fail with `status` (500 = internal envelope, 502/503 = HTML page). */
  failNext(count: Count, status: FailureStatus = 503): this {
    this.failures = { remaining: count, status };
    return this;
  }

  /** Every request (or the next `count`) fails with 500 `internal`. */
  internal(count: Count = Number.POSITIVE_INFINITY): this {
    return this.failNext(count, 500);
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
    if (!on) this.releaseHung();
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

  revokeKey(nameOrId: string): this {
    this.key(nameOrId).revoked = true;
    return this;
  }

  /** Makes a key expired as of now (its expiry is set to the epoch). */
  expireKey(nameOrId: string): this {
    this.key(nameOrId).expiresAt = 0;
    return this;
  }

  planLost(lost = true): this {
    this.community.planActive = !lost;
    return this;
  }

  refuseIp(on = true): this {
    this.ipRefused = on;
    return this;
  }

  inlineAssignments(on = true): this {
    this.inline = on;
    return this;
  }

  /** Turns every fault off and releases hung requests. Revoked/expired keys stay so; the plan comes back. */
  clear(): this {
    this.latencyMs = 0;
    this.failures = { remaining: 0, status: 503 };
    this.malformed = 0;
    this.drops = 0;
    this.forced429 = { remaining: 0, retryAfter: 1 };
    this.ipRefused = false;
    this.community.planActive = true;
    this.hang(false);
    return this;
  }

  // The pipeline consumes faults through the methods below.

  takeDrop(): boolean {
    return this.consume('drops');
  }

  /** The failure status for this request, if one is due at this stage (gateway or service). */
  takeFailure(stage: 'gateway' | 'service'): FailureStatus | null {
    const isGateway = this.failures.status !== 500;
    if (this.failures.remaining <= 0 || isGateway !== (stage === 'gateway')) return null;
    this.failures.remaining--;
    return this.failures.status;
  }

  takeMalformed(): boolean {
    return this.consume('malformed');
  }

  takeForced429(): { retryAfter: number | null } | null {
    if (this.forced429.remaining <= 0) return null;
    this.forced429.remaining--;
    return { retryAfter: this.forced429.retryAfter };
  }

  /** Resolves at once when not hanging, else when the hang is lifted (never, if the server closes first). */
  waitWhileHung(): Promise<void> | null {
    if (!this.hung) return null;
    return new Promise((resolve) => this.hungWaiters.add(resolve));
  }

  get hungCount(): number {
    return this.hungWaiters.size;
  }

  private releaseHung(): void {
    for (const resolve of this.hungWaiters) resolve();
    this.hungWaiters.clear();
  }

  private consume(field: 'drops' | 'malformed'): boolean {
    if (this[field] <= 0) return false;
    this[field]--;
    return true;
  }

  private key(nameOrId: string): ApiKeyRecord {
    const key = this.keys.find((k) => k.name === nameOrId || k.id === nameOrId);
    if (!key) throw new Error(`mock roster: no key ${nameOrId}`);
    return key;
  }
}
