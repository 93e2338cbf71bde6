import { describe, expect, it } from 'vitest';
import type { MirroredMember } from '../../../src/features/mirror/mirrored-member';
import {
  decodeMirror,
  encodeMirror,
  MEMBERS_PER_PIECE,
  mirrorJson,
  type SavedMirror,
} from '../../../src/features/mirror/saved-mirror';
import {
  type BackgroundSnapshotStore,
  loadSnapshot,
  type SnapshotStore,
  saveSnapshot,
  saveSnapshotInSlices,
} from '../../../src/features/snapshot/snapshot';
import { silentLogger } from '../../../src/platform/ports';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import { MemberCache } from '../../../src/roster/member-cache';
import { toMemberView } from '../../../src/roster/member-view';
import { catalog, license, lookupOf } from '../../roster/fixtures';

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
    saveSnapshot(first, store, 5_100_000, { mirror: mirrorJson(savedMirror()) });
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

/** `count` members of one department, the rank of each one of three shared expanded ranks. */
function largeMirror(count: number): SavedMirror {
  const base = savedMirror();
  const ranks = [1, 2, 3].map((n) => ({
    id: `r-${n}`,
    departmentId: 'd-lspd',
    name: `Rank ${n}`,
    position: n,
  }));
  const members: MirroredMember[] = Array.from({ length: count }, (_, i) => ({
    id: `m-${i}`,
    name: `Member ${i}`,
    status: 'ACTIVE',
    license: `license:${i.toString(16).padStart(40, '0')}`,
    assignments: [
      {
        id: `a-${i}`,
        departmentId: 'd-lspd',
        rankId: ranks[i % 3]!.id,
        isPrimary: true,
        callsign: null,
        rank: ranks[i % 3]!,
      },
    ],
    createdAt: null,
    readAt: 4_000_000 + i,
  }));
  return { ...base, members };
}

/** A store that keeps what each background write appended, and in which frame. */
function backgroundStore() {
  const frames = { now: 0 };
  const appended: { frame: number; text: string }[] = [];
  let writing: { current: boolean } | null = null;
  const store: BackgroundSnapshotStore & { text: string | null } = {
    text: null,
    read() {
      return this.text;
    },
    write(next) {
      if (writing) writing.current = false;
      this.text = next;
    },
    begin() {
      const parts: string[] = [];
      const writer = {
        current: true,
        append: async (text: string) => {
          appended.push({ frame: frames.now, text });
          parts.push(text);
        },
        finish: async () => {
          if (!writer.current) return false;
          writer.current = false;
          store.text = parts.join('');
          return true;
        },
        abandon: async () => {
          writer.current = false;
        },
      };
      writing = writer;
      return writer;
    },
  };
  const nextFrame = async () => {
    frames.now++;
  };
  return { store, appended, frames, nextFrame };
}

const licensesIn = (text: string) => text.split('"license:').length - 1;

describe('the mirror written in pieces', () => {
  it('joined, the pieces parse to what encodeMirror gives; no piece encodes more than its share of members', () => {
    const saved = largeMirror(2_500);
    const pieces = [...mirrorJson(saved)];
    expect(JSON.parse(pieces.join(''))).toEqual(encodeMirror(saved));
    expect(pieces.length).toBe(2 + Math.ceil(2_500 / MEMBERS_PER_PIECE));
    for (const piece of pieces) expect(licensesIn(piece)).toBeLessThanOrEqual(MEMBERS_PER_PIECE);
    const decoded = decodeMirror(JSON.parse(pieces.join('')));
    if (!('saved' in decoded)) throw new Error(decoded.problem);
    expect(decoded.saved).toEqual(saved);
  });

  it('a mirror without members, and one of exactly one piece, are whole JSON too', () => {
    for (const count of [0, MEMBERS_PER_PIECE]) {
      const saved = largeMirror(count);
      expect(JSON.parse([...mirrorJson(saved)].join(''))).toEqual(encodeMirror(saved));
    }
  });

  it('each piece is made when it is taken, not before', () => {
    const saved = largeMirror(3 * MEMBERS_PER_PIECE);
    const pieces = mirrorJson(saved);
    pieces.next();
    pieces.next();
    // A member replaced after the first pieces were taken is written as it is now.
    saved.members[2 * MEMBERS_PER_PIECE] = { ...saved.members[2 * MEMBERS_PER_PIECE]!, name: 'Renamed' };
    const rest = [...pieces].join('');
    expect(rest).toContain('"Renamed"');
  });
});

describe('a snapshot saved in slices', () => {
  it('takes one piece a frame, none over its share of members, and writes what a save at once writes', async () => {
    const cache = cacheAt(5_000_000);
    cache.set(license, view);
    const saved = largeMirror(5 * MEMBERS_PER_PIECE + 1);
    const { store, appended, nextFrame } = backgroundStore();
    const held = await saveSnapshotInSlices(
      cache,
      store,
      5_100_000,
      { mirror: mirrorJson(saved) },
      nextFrame,
    );
    expect(held).toBe(1);
    const frames = appended.map((a) => a.frame);
    expect(new Set(frames).size).toBe(frames.length);
    for (const { text } of appended) expect(licensesIn(text)).toBeLessThanOrEqual(MEMBERS_PER_PIECE);
    // 5,001 members: six pieces of members among the pieces, each in a frame of its own.
    expect(appended.filter((a) => licensesIn(a.text) > 0).length).toBeGreaterThanOrEqual(6);

    const atOnce = memoryStore();
    saveSnapshot(cache, atOnce, 5_100_000, { mirror: mirrorJson(saved) });
    expect(JSON.parse(store.text!)).toEqual(JSON.parse(atOnce.text!));
    const decoded = decodeMirror(loadSnapshot(cacheAt(6_000_000), store, silentLogger)!.mirror);
    expect('saved' in decoded && decoded.saved.members).toHaveLength(5 * MEMBERS_PER_PIECE + 1);
  });

  it('a save at once while it runs wins: the one in slices stops and never puts its file in place', async () => {
    const cache = cacheAt(5_000_000);
    cache.set(license, view);
    const { store, frames, appended } = backgroundStore();
    const stopAt = 3;
    const nextFrame = async () => {
      frames.now++;
      if (frames.now === stopAt) saveSnapshot(cache, store, 5_200_000, {});
    };
    const held = await saveSnapshotInSlices(
      cache,
      store,
      5_100_000,
      { mirror: mirrorJson(largeMirror(4 * MEMBERS_PER_PIECE)) },
      nextFrame,
    );
    expect(held).toBeNull();
    expect(JSON.parse(store.text!)).toMatchObject({ savedAt: 5_200_000 });
    expect(appended.length).toBe(stopAt - 1);
  });
});
