import { keyNamed } from '../mock-http/api-keys';
import { FaultSwitches } from '../mock-http/fault-switches';
import type { LearningKey } from './api-keys';
import type { FlagName, LearningOrg } from './records';

/**
 * Faults and run-time switches a test turns on: the shared ones (latency, failNext, malformedJson,
 * dropConnection, hang, rateLimit) plus the rate limit, paging, keys and org flags of this mock.
 */
export class LearningFaults extends FaultSwitches {
  /** Per-key (per-address without a key) limit per calendar minute; null = no limit. */
  perMinuteLimit: number | null;
  /** Default page size of the completion lists; null = whole lists. */
  pageSize: number | null;

  constructor(
    private readonly keys: readonly LearningKey[],
    private readonly org: LearningOrg,
    settings: { perMinute: number | null; pageSize: number | null },
  ) {
    super();
    this.perMinuteLimit = settings.perMinute;
    this.pageSize = settings.pageSize;
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
    keyNamed(this.keys, nameOrPrefix, (k) => k.prefix, 'mock learning').revoked = true;
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
  override clear(): this {
    this.org.flags = { discord: true, gamification: true, api_access: true };
    return super.clear();
  }
}
