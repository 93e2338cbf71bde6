import { describe, expect, it } from 'vitest';
import { loadSnapshot, type SnapshotStore, saveSnapshot } from '../../src/features/snapshot/snapshot';
import { silentLogger } from '../../src/platform/ports';
import { CatalogIndex } from '../../src/roster/catalog-index';
import { MemberCache } from '../../src/roster/member-cache';
import { toMemberView } from '../../src/roster/member-view';
import { catalog, license, lookupOf } from './fixtures';

const view = toMemberView(lookupOf(), new CatalogIndex(catalog));

function cacheAt(clock: { t: number }, maxEntries = 100) {
  return new MemberCache({ maxEntries, ttlMs: 600_000, negativeTtlMs: 60_000, now: () => clock.t });
}

describe('MemberCache', () => {
  it('answers fresh within the TTL and keeps the record as last known after it', () => {
    const clock = { t: 1_000_000 };
    const cache = cacheAt(clock);
    cache.set(license, view);
    clock.t += 599_000;
    expect(cache.fresh(license)).toBe(view);
    clock.t += 2_000;
    expect(cache.fresh(license)).toBeUndefined();
    clock.t += 30 * 86_400_000;
    expect(cache.lastKnown(license)).toBe(view);
  });

  it('remembers "not on the roster" for the negative TTL only, and never as a last known member', () => {
    const clock = { t: 1_000_000 };
    const cache = cacheAt(clock);
    cache.set(license, null);
    expect(cache.fresh(license)).toBeNull();
    clock.t += 61_000;
    expect(cache.fresh(license)).toBeUndefined();
    expect(cache.lastKnown(license)).toBeUndefined();
  });

  it('is bounded by entries, evicting the least recently used', () => {
    const clock = { t: 1_000_000 };
    const cache = cacheAt(clock, 2);
    cache.set('license:1', view);
    cache.set('license:2', view);
    cache.set('license:3', view);
    expect(cache.size).toBe(2);
    expect(cache.lastKnown('license:1')).toBeUndefined();
  });

  it('finds the license of a record held by its member id or an assignment id, and forgets it with the record', () => {
    const clock = { t: 1_000_000 };
    const cache = cacheAt(clock, 1);
    cache.set(license, view);
    expect(cache.licenseNamedBy('m-1')).toBe(license);
    expect(cache.licenseNamedBy('a-2')).toBe(license);
    expect(cache.licenseNamedBy('d-lspd')).toBeUndefined();
    // Stale records stay held (last known answers), so they stay found.
    clock.t += 30 * 86_400_000;
    expect(cache.licenseNamedBy('a-1')).toBe(license);
    // Evicted by size: gone from the index too.
    cache.set('license:other', null);
    expect(cache.licenseNamedBy('m-1')).toBeUndefined();
    expect(cache.licenseNamedBy('a-1')).toBeUndefined();
  });

  it('a record replaced without an assignment no longer answers for it', () => {
    const cache = cacheAt({ t: 1 });
    cache.set(license, view);
    const fewer = toMemberView(
      { ...lookupOf(), assignments: lookupOf().assignments.slice(1) },
      new CatalogIndex(catalog),
    );
    cache.remember(license, fewer, 1);
    expect(cache.licenseNamedBy('a-1')).toBeUndefined();
    expect(cache.licenseNamedBy('a-2')).toBe(license);
    expect(cache.licenseNamedBy('m-1')).toBe(license);
  });

  it('marking every record stale keeps each as the last known answer, in the same order, and never as fresh', () => {
    const clock = { t: 1_000_000 };
    const cache = cacheAt(clock);
    cache.set('license:1', view);
    clock.t += 1;
    cache.set('license:2', null);
    clock.t += 1;
    cache.set(license, view);
    const order = [...cache.knownMembers()].map((m) => m.fetchedAt);
    cache.markAllStale();
    expect(cache.fresh(license)).toBeUndefined();
    expect(cache.fresh('license:2')).toBeUndefined();
    expect(cache.lastKnown('license:1')).toBe(view);
    expect(cache.licenseNamedBy('m-1')).toBe(license);
    expect(order).toEqual([1_000_002, 1_000_000]);
    expect([...cache.knownMembers()].map((m) => m.fetchedAt)).toEqual(order);
    expect(cache.size).toBe(3);
  });

  it('counts hits and misses', () => {
    const cache = cacheAt({ t: 1 });
    cache.fresh(license);
    cache.set(license, view);
    cache.fresh(license);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, hitRate: 0.5 });
  });
});

describe('snapshot', () => {
  function memoryStore(): SnapshotStore & { text: string | null } {
    return {
      text: null,
      read() {
        return this.text;
      },
      write(text) {
        this.text = text;
      },
    };
  }

  it('round-trips known members as last-known records, never as fresh ones', () => {
    const clock = { t: 5_000_000 };
    const store = memoryStore();
    const first = cacheAt(clock);
    first.set(license, view);
    first.set('license:none', null);
    expect(saveSnapshot(first, store, clock.t)).toBe(1);

    const second = cacheAt(clock);
    expect(loadSnapshot(second, store, silentLogger)?.members).toBe(1);
    expect(second.fresh(license)).toBeUndefined();
    expect(second.lastKnown(license)?.member).toEqual(view.member);
    expect(second.lastKnown(license)?.department('lspd')?.rank?.name).toBe('Officer');
  });

  it('is bounded in size, keeping the most recently used', () => {
    const clock = { t: 5_000_000 };
    const store = memoryStore();
    const cache = cacheAt(clock);
    for (let i = 0; i < 10; i++)
      cache.set(
        `license:${i}`,
        toMemberView(
          { ...lookupOf(), member: { ...lookupOf().member, gameLicense: `license:${i}` } },
          new CatalogIndex(catalog),
        ),
      );
    expect(saveSnapshot(cache, store, clock.t, { limit: 3 })).toBe(3);
    const licenses = JSON.parse(store.text!).members.map(
      (m: { member: { license: string } }) => m.member.license,
    );
    expect(licenses).toEqual(['license:9', 'license:8', 'license:7']);
  });

  it('ignores a corrupt or foreign file with a warning instead of failing', () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => warnings.push(m) };
    const cache = cacheAt({ t: 1 });
    expect(
      loadSnapshot(cache, { read: () => '{"version":1,"members":[{"x":', write() {} }, logger),
    ).toBeNull();
    expect(loadSnapshot(cache, { read: () => '{"version":3}', write() {} }, logger)).toBeNull();
    expect(warnings).toHaveLength(2);
    expect(cache.size).toBe(0);
  });
});
