/** One request as the mock saw it. `status` is null while it is in flight (or hung), 0 when dropped. */
export interface RequestLogEntry {
  time: number;
  method: string;
  path: string;
  query: string;
  /** Route name, e.g. `GET /api/v1/members`; `unmatched` for unknown paths. */
  endpoint: string;
  keyId: string | null;
  status: number | null;
  requestId: string;
}

const LOG_LIMIT = 100_000;
const WINDOW_MS = 60_000;

/**
 * What tests read back: totals per endpoint and key (id or prefix, as the mock names keys),
 * refusals, the request log. Bounded to the last 100,000 requests.
 */
export class MockCounters {
  readonly log: RequestLogEntry[] = [];
  private readonly endpoints = new Map<string, number>();
  private readonly keys = new Map<string, number>();
  total = 0;
  /** Answered 429. */
  rateLimited = 0;
  /** Answered with any other status ≥ 400. */
  errors = 0;
  dropped = 0;

  begin(entry: Omit<RequestLogEntry, 'status'>): RequestLogEntry {
    const record: RequestLogEntry = { ...entry, status: null };
    this.total++;
    this.endpoints.set(entry.endpoint, (this.endpoints.get(entry.endpoint) ?? 0) + 1);
    this.log.push(record);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    return record;
  }

  /** The key becomes known after the entry starts (it is parsed from the headers). */
  attributeKey(record: RequestLogEntry, keyId: string): void {
    record.keyId = keyId;
    this.keys.set(keyId, (this.keys.get(keyId) ?? 0) + 1);
  }

  finish(record: RequestLogEntry, status: number): void {
    record.status = status;
    if (status === 0) this.dropped++;
    else if (status === 429) this.rateLimited++;
    else if (status >= 400) this.errors++;
  }

  byEndpoint(): Record<string, number> {
    return Object.fromEntries(this.endpoints);
  }

  /** Requests per key id (requests whose token named a key id, valid or not). */
  byKey(): Record<string, number> {
    return Object.fromEntries(this.keys);
  }

  /**
   * The most requests carrying `keyId` that arrived within any 60 s span of the injected clock.
   * By default every request counts, since a client must not even send more than its limit.
   */
  maxInRolling60s(keyId: string, options: { excludeRateLimited?: boolean } = {}): number {
    const times = this.log
      .filter((e) => e.keyId === keyId && !(options.excludeRateLimited && e.status === 429))
      .map((e) => e.time)
      .sort((a, b) => a - b);
    let max = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= WINDOW_MS) start++;
      max = Math.max(max, end - start + 1);
    }
    return max;
  }

  reset(): void {
    this.log.length = 0;
    this.endpoints.clear();
    this.keys.clear();
    this.total = 0;
    this.rateLimited = 0;
    this.errors = 0;
    this.dropped = 0;
  }
}
