import { LRUCache } from 'lru-cache';
import type { MemberView } from './member-view';

export interface MemberCacheOptions {
  maxEntries: number;
  ttlMs: number;
  negativeTtlMs: number;
  /** Milliseconds since the epoch; injected so tests control staleness. */
  now: () => number;
}

interface Entry {
  /** `null`: the service said this license is not on the roster. */
  view: MemberView | null;
  fetchedAt: number;
}

/**
 * Members by license. Fresh for the TTL; past it a member record is kept (until evicted by size)
 * as the last known answer for when the service cannot answer.
 */
export class MemberCache {
  private readonly lru: LRUCache<string, Entry>;
  private hitCount = 0;
  private missCount = 0;
  /**
   * Member id and assignment ids of every record held → its license: how an audit entry, which
   * names members by id, reaches a member who is not online. Entries leave it with their record.
   */
  private readonly licenseById = new Map<string, string>();

  constructor(private readonly options: MemberCacheOptions) {
    this.lru = new LRUCache<string, Entry>({
      max: options.maxEntries,
      ttl: options.ttlMs,
      // Stale entries stay (until evicted by size) as last-known answers, and iteration sees them.
      allowStale: true,
      noDeleteOnStaleGet: true,
      perf: { now: options.now },
      // No cached clock reading: staleness follows the injected clock exactly, and no timer is started.
      ttlResolution: 0,
      // Called synchronously on eviction and on replacement (before `set` indexes the new record).
      dispose: (entry, license) => this.unindex(license, entry.view),
    });
  }

  /** A fresh answer: the member, `null` for a fresh "not on the roster", `undefined` when unknown or stale. */
  fresh(license: string): MemberView | null | undefined {
    const entry = this.lru.get(license);
    if (entry === undefined || this.lru.getRemainingTTL(license) <= 0) {
      this.missCount++;
      return undefined;
    }
    this.hitCount++;
    return entry.view;
  }

  /** The last member record the service gave for this license, however old. */
  lastKnown(license: string): MemberView | undefined {
    return this.lru.get(license)?.view ?? undefined;
  }

  /** When the answer held for this license (a member or "not on the roster") was read; undefined: none. */
  readAt(license: string): number | undefined {
    return this.lru.peek(license)?.fetchedAt;
  }

  /** The same with when it was read (this server's time), to tell it from a newer one held elsewhere. */
  lastKnownRecord(license: string): { view: MemberView; readAt: number } | undefined {
    const entry = this.lru.get(license);
    return entry?.view ? { view: entry.view, readAt: entry.fetchedAt } : undefined;
  }

  set(license: string, view: MemberView | null, fetchedAt = this.options.now()): void {
    const ttl = view === null ? this.options.negativeTtlMs : this.options.ttlMs;
    this.lru.set(license, { view, fetchedAt }, { ttl, start: fetchedAt });
    this.index(license, view);
  }

  /** Keeps a record only as the last known answer (e.g. from the snapshot): never taken as fresh. */
  remember(license: string, view: MemberView, fetchedAt: number): void {
    // A start at the epoch's first millisecond makes the entry stale at once; fetchedAt stays truthful.
    this.lru.set(license, { view, fetchedAt }, { ttl: 1, start: 1 });
    this.index(license, view);
  }

  /**
   * Every record held becomes a last known answer only (as if from the snapshot): the next lookup
   * of each asks the service, an outage still finds it. For when changes may have been missed.
   */
  markAllStale(): void {
    // Least recently used first: each set makes its entry the most recent, so the order is kept.
    const held = [...this.lru.rentries()] as [string, Entry][];
    for (const [license, entry] of held) this.lru.set(license, entry, { ttl: 1, start: 1 });
  }

  /** The record held for `license`, if any, becomes a last known answer only (as `markAllStale`). */
  markStale(license: string): void {
    const entry = this.lru.peek(license);
    if (entry !== undefined) this.lru.set(license, entry, { ttl: 1, start: 1 });
  }

  /**
   * Forgets every record that is only a last known answer (those from the snapshot, early in a
   * run): for when they turn out to be another community's. Returns how many went.
   */
  dropStale(): number {
    const stale = [...this.lru.keys()].filter((license) => this.lru.getRemainingTTL(license) <= 0);
    for (const license of stale) this.lru.delete(license);
    return stale.length;
  }

  /** The license of the member record held whose member id or assignment id is `id`. */
  licenseNamedBy(id: string): string | undefined {
    return this.licenseById.get(id);
  }

  private index(license: string, view: MemberView | null): void {
    if (view === null) return;
    this.licenseById.set(view.member.id, license);
    for (const assignmentId of view.assignments.values()) this.licenseById.set(assignmentId, license);
  }

  private unindex(license: string, view: MemberView | null): void {
    if (view === null) return;
    for (const id of [view.member.id, ...view.assignments.values()]) {
      // A member who changed license is indexed under the new one: leave that alone.
      if (this.licenseById.get(id) === license) this.licenseById.delete(id);
    }
  }

  get size(): number {
    return this.lru.size;
  }

  stats(): { size: number; hits: number; misses: number; hitRate: number } {
    const total = this.hitCount + this.missCount;
    return {
      size: this.lru.size,
      hits: this.hitCount,
      misses: this.missCount,
      hitRate: total === 0 ? 0 : this.hitCount / total,
    };
  }

  /** Known members, most recently used first, fresh or not (for the snapshot). */
  *knownMembers(): Generator<{ view: MemberView; fetchedAt: number }> {
    for (const [, value] of this.lru.entries()) {
      if (value.view !== null) yield { view: value.view, fetchedAt: value.fetchedAt };
    }
  }
}
