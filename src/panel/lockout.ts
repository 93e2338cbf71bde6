export interface LockoutOptions {
  /** Wrong tokens allowed within `windowMs` before the address is locked out (contract: 5). */
  maxFailures?: number;
  windowMs?: number;
  /** How long a locked address gets 429 (contract: 10 minutes). */
  lockMs?: number;
  /** Addresses remembered at most; the stalest are forgotten first. */
  maxAddresses?: number;
}

interface AddressRecord {
  failures: number[];
  lockedUntil: number;
}

/** Counts wrong tokens per address and locks an address out after too many. Bounded in memory. */
export class Lockout {
  private readonly records = new Map<string, AddressRecord>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly lockMs: number;
  private readonly maxAddresses: number;

  constructor(options: LockoutOptions = {}) {
    this.maxFailures = options.maxFailures ?? 5;
    this.windowMs = options.windowMs ?? 10 * 60_000;
    this.lockMs = options.lockMs ?? 10 * 60_000;
    this.maxAddresses = options.maxAddresses ?? 4096;
  }

  /** Milliseconds the address stays locked out, or 0. */
  lockedFor(address: string, now: number): number {
    const record = this.records.get(address);
    if (!record || record.lockedUntil <= now) return 0;
    return record.lockedUntil - now;
  }

  /** Counts a wrong token; returns true when this failure locks the address out. */
  fail(address: string, now: number): boolean {
    let record = this.records.get(address);
    if (record) this.records.delete(address);
    else record = { failures: [], lockedUntil: 0 };
    // Re-inserted last: Map order is least recently failed first, which is what eviction wants.
    this.records.set(address, record);
    record.failures = record.failures.filter((at) => now - at < this.windowMs);
    record.failures.push(now);
    if (record.failures.length >= this.maxFailures) {
      record.lockedUntil = now + this.lockMs;
      record.failures = [];
      this.evict(now);
      return true;
    }
    this.evict(now);
    return false;
  }

  get size(): number {
    return this.records.size;
  }

  private evict(now: number): void {
    if (this.records.size <= this.maxAddresses) return;
    for (const [address, record] of this.records) {
      if (this.records.size <= this.maxAddresses) return;
      // A locked address is kept while its lock lasts, unless every entry is locked.
      if (record.lockedUntil > now) continue;
      this.records.delete(address);
    }
    while (this.records.size > this.maxAddresses) {
      const oldest = this.records.keys().next().value as string;
      this.records.delete(oldest);
    }
  }
}

/** `1.2.3.4:5678` → `1.2.3.4`, `[::1]:5678` → `::1`: FXServer's `request.address` carries the port. */
export function hostOf(address: string): string {
  const text = String(address ?? '').trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  const colons = text.split(':').length - 1;
  if (colons === 1) return text.slice(0, text.lastIndexOf(':'));
  // Bare IPv6 with a port appended (`::1:5678`) cannot be told apart safely; keep it whole but
  // drop a trailing port only when the rest is still an address FXServer would print.
  if (colons > 1 && /^[0-9a-fA-F:.]+:\d{1,5}$/.test(text) && text.includes('::')) {
    return text.slice(0, text.lastIndexOf(':'));
  }
  return text;
}
