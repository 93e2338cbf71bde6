import { LRUCache } from 'lru-cache';

export interface LockoutOptions {
  /** Wrong tokens allowed within `windowMs` before the address is locked out (5 by default). */
  maxFailures?: number;
  windowMs?: number;
  /** How long a locked address gets 429 (10 minutes by default). */
  lockMs?: number;
  /** Addresses remembered at most; the one that failed longest ago is forgotten first. */
  maxAddresses?: number;
}

interface AddressRecord {
  failures: number[];
  lockedUntil: number;
}

/**
 * Counts wrong tokens per client address and locks an address out after too many. Bounded: when
 * the table is full, the address whose last failure is oldest makes room, so a new address is
 * always counted and locked (a flood of addresses can push an old lock out early, never stop new
 * ones from being made).
 */
export class Lockout {
  private readonly records: LRUCache<string, AddressRecord>;
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly lockMs: number;

  constructor(options: LockoutOptions = {}) {
    this.maxFailures = options.maxFailures ?? 5;
    this.windowMs = options.windowMs ?? 10 * 60_000;
    this.lockMs = options.lockMs ?? 10 * 60_000;
    this.records = new LRUCache({ max: options.maxAddresses ?? 4096 });
  }

  /** Milliseconds the address stays locked out, or 0. Reading does not make an address recent. */
  lockedFor(address: string, now: number): number {
    const record = this.records.peek(address);
    if (!record || record.lockedUntil <= now) return 0;
    return record.lockedUntil - now;
  }

  /** Counts a wrong token; returns true when this failure locks the address out. */
  fail(address: string, now: number): boolean {
    const record = this.records.get(address) ?? { failures: [], lockedUntil: 0 };
    record.failures = record.failures.filter((at) => now - at < this.windowMs);
    record.failures.push(now);
    const locks = record.failures.length >= this.maxFailures;
    if (locks) {
      record.lockedUntil = now + this.lockMs;
      record.failures = [];
    }
    this.records.set(address, record);
    return locks;
  }

  get size(): number {
    return this.records.size;
  }
}
