import { describe, expect, it } from 'vitest';
import { MemberCache } from '../../../src/core/cache/member-cache';
import { loadSnapshot, type SnapshotStore, saveSnapshot } from '../../../src/core/cache/snapshot';
import { decodeMirror, encodeMirror, type SavedMirror } from '../../../src/core/mirror/saved-mirror';
import { silentLogger } from '../../../src/core/ports';
import { CatalogIndex } from '../../../src/core/roster/catalog-index';
import { toMemberView } from '../../../src/core/roster/member-view';
import { catalog, license, lookupOf } from '../roster/fixtures';

const view = toMemberView(lookupOf(), new CatalogIndex(catalog));

function cacheAt(t: number) {
  return new MemberCache({ maxEntries: 100, ttlMs: 600_000, negativeTtlMs: 60_000, now: () => t });
}

function memoryStore(text: string | null = null): SnapshotStore & { text: string | null } {
  return {
    text,
    read() {
      return this.text;
    },
    write(next) {
      this.text = next;
    },
  };
}

/** A mirror of two members sharing one expanded rank, saved in step with the audit log. */
function savedMirror(): SavedMirror {
  const officer = { id: 'r-off', departmentId: 'd-lspd', name: 'Officer', position: 7 };
  const assignment = (id: string) => ({
    id,
    departmentId: 'd-lspd',
    rankId: 'r-off',
    isPrimary: true,
    callsign: null,
    rank: officer,
  });
  return {
    fullReadAt: 5_000_000,
    audit: { at: Date.UTC(2025, 5, 2, 12, 0, 0, 123) },
    newestMember: { text: '2025-06-01T10:00:00.000Z', at: Date.UTC(2025, 5, 1, 10) },
    catalog,
    members: [
      {
        id: 'm-1',
        name: 'Alice',
        status: 'ACTIVE',
        license,
        assignments: [assignment('a-1')],
        createdAt: '2025-01-02T03:04:05.000Z',
        readAt: 5_000_100,
      },
      {
        id: 'm-2',
        name: 'Bob',
        status: 'SUSPENDED',
        license: 'license:b',
        assignments: [assignment('a-2')],
        createdAt: null,
        readAt: 4_000_000,
      },
      {
        id: 'm-3',
        name: 'Carol',
        status: 'ACTIVE',
        license: 'license:c',
        assignments: [],
        createdAt: null,
        readAt: 4_000_000,
      },
    ],
    spent: { day: 20_000, requests: 12 },
    community: 'id:com_1',
  };
}

describe('roster-snapshot.json', () => {
  it('version 2 round-trips the cache members and the mirror, which comes back whole', () => {
    const store = memoryStore();
    const first = cacheAt(5_000_000);
    first.set(license, view);
    saveSnapshot(first, store, 5_100_000, { mirror: encodeMirror(savedMirror()) });
    expect(JSON.parse(store.text!)).toMatchObject({ version: 2, savedAt: 5_100_000 });

    const loaded = loadSnapshot(cacheAt(6_000_000), store, silentLogger)!;
    expect(loaded).toMatchObject({ members: 1, savedAt: 5_100_000 });
    const decoded = decodeMirror(loaded.mirror);
    if (!('saved' in decoded)) throw new Error(decoded.problem);
    expect(decoded.saved).toEqual(savedMirror());
    // The expanded rank is written once and shared again when read back.
    expect(JSON.parse(store.text!).mirror.ranks).toHaveLength(1);
    const [alice, bob] = decoded.saved.members;
    expect(alice!.assignments[0]!.rank).toBe(bob!.assignments[0]!.rank);
  });

  it('keeps the audit position as the service stamped it, and "from the log beginning" apart from "none"', () => {
    const saved = savedMirror();
    const json = encodeMirror(saved) as { audit: unknown };
    expect(json.audit).toEqual({ at: '2025-06-02T12:00:00.123Z' });
    const fromStart = decodeMirror(encodeMirror({ ...saved, audit: { at: null } }));
    const none = decodeMirror(encodeMirror({ ...saved, audit: null }));
    expect('saved' in fromStart && fromStart.saved.audit).toEqual({ at: null });
    expect('saved' in none && none.saved.audit).toBeNull();
  });

  it('reads a version 1 file: its members come back, and there is no mirror', () => {
    const v1 = JSON.stringify({
      version: 1,
      savedAt: 5_000_000,
      members: [{ fetchedAt: 4_000_000, member: view.member }],
      // A version 1 file never held one; a key of that name there is not read.
      mirror: encodeMirror(savedMirror()),
    });
    const cache = cacheAt(6_000_000);
    const loaded = loadSnapshot(cache, memoryStore(v1), silentLogger);
    expect(loaded).toEqual({ members: 1, savedAt: 5_000_000, mirror: undefined });
    expect(cache.fresh(license)).toBeUndefined();
    expect(cache.lastKnown(license)?.member).toEqual(view.member);
  });

  it('a version 2 file without a mirror part loads as one without it', () => {
    const store = memoryStore();
    saveSnapshot(cacheAt(1), store, 1);
    expect(JSON.parse(store.text!)).not.toHaveProperty('mirror');
    expect(loadSnapshot(cacheAt(1), store, silentLogger)?.mirror).toBeUndefined();
  });

  it('an unreadable mirror part is refused on its own, with what is wrong', () => {
    const json = encodeMirror(savedMirror()) as { members: unknown[] };
    json.members[1] = ['m-2', 'Bob'];
    const decoded = decodeMirror(json);
    expect('problem' in decoded && decoded.problem).toMatch(/^members\.1/);
    expect('problem' in decodeMirror({ ...(json as object), members: [], audit: { at: 'yesterday' } })).toBe(
      true,
    );
  });
});
