import { RosterMirror } from '../../src/features/mirror/roster-mirror';
import { CatalogIndex } from '../../src/roster/catalog-index';
import { MemberCache } from '../../src/roster/member-cache';
import { toMemberView } from '../../src/roster/member-view';
import { RosterStore } from '../mock-roster/roster-store';
import { seedCommunity } from '../mock-roster/seed-community';
import { catalogOf, lookupOf } from './hot-path';

export interface MemoryResult {
  /** (heap + array buffers) after minus before, per member: the cache's own structure included. */
  bytesPerMember: number;
  /** The part of it that is the empty cache (lru-cache allocates its slots up front). */
  structureBytes: number;
  members: number;
}

/**
 * Heap per cached member: a MemberCache with the default size (50,000), filled with `count`
 * MemberViews built the way the resource builds them (from records freshly parsed from JSON, so
 * no string is shared with the mock's data), keyed by a fresh copy of the license as a player's
 * identifier would be. Measured after a full GC, heap plus ArrayBuffers (lru-cache keeps its
 * bookkeeping in typed arrays, outside the JS heap). Needs `--expose-gc`.
 */
export function heapPerMember(count: number): MemoryResult {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc to measure memory');
  const store = new RosterStore(seedCommunity({ seed: 1, members: count }), 1, Date.now);
  const catalog = new CatalogIndex(catalogOf(store));
  const collect = () => {
    for (let i = 0; i < 3; i++) gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const before = collect();
  const cache = new MemberCache({ maxEntries: 50_000, ttlMs: 600_000, negativeTtlMs: 60_000, now: Date.now });
  const empty = collect();
  for (const member of store.members) {
    cache.set(
      JSON.parse(`"${member.gameLicense}"`) as string,
      toMemberView(lookupOf(store, member), catalog),
    );
  }
  const after = collect();
  if (cache.size !== count) throw new Error(`expected ${count} cached members, got ${cache.size}`);
  return { bytesPerMember: (after - before) / count, structureBytes: empty - before, members: count };
}

/**
 * Heap per member of the roster mirror (`RosterMirror`): `count` members of the mock's seeded
 * community, each a record freshly parsed from JSON with its assignments (ranks expanded, as the
 * service sends them), shaped by the mirror's own `compact` and stored by a full read's
 * `replaceAll`. The records are dropped once compacted, as a read drops its pages; what stays is
 * what the mirror keeps (its two maps, the compact members, the shared ranks). Needs `--expose-gc`.
 */
export function heapPerMirroredMember(count: number): MemoryResult {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc to measure memory');
  const store = new RosterStore(seedCommunity({ seed: 1, members: count }), 1, Date.now);
  const collect = () => {
    for (let i = 0; i < 3; i++) gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const before = collect();
  const mirror = new RosterMirror(50_000, () => {
    throw new Error('the mirror said the roster is too large');
  });
  const empty = collect();
  mirror.beginRead();
  mirror.replaceAll(store.members.map((member) => mirror.compact(lookupOf(store, member))));
  const after = collect();
  if (mirror.size !== count) throw new Error(`expected ${count} mirrored members, got ${mirror.size}`);
  return { bytesPerMember: (after - before) / count, structureBytes: empty - before, members: count };
}
