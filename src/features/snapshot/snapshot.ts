import { z } from 'zod';
import { errorMessage } from '../../platform/error-message';
import type { Logger } from '../../platform/ports';
import type { MemberCache } from '../../roster/member-cache';
import { type MemberView, viewOf } from '../../roster/member-view';

/** Where the snapshot lives; the FiveM side writes a file in the resource folder, atomically. */
export interface SnapshotStore {
  read(): string | null;
  /** Writes the whole text now and puts it in place (at stop, where nothing runs after). */
  write(text: string): void;
}

/** A store that can also write without holding the game thread. */
export interface BackgroundSnapshotStore extends SnapshotStore {
  /** Begins a write in the background; a write at once (`write`) drops it. */
  begin(): SnapshotWriter;
}

/** One background write: text appended in order, put in place only whole. */
export interface SnapshotWriter {
  /** False once a write at once came (it is newer) or this one was abandoned. */
  readonly current: boolean;
  append(text: string): Promise<void>;
  /** Flushes and puts the text in place; false when it is no longer current (nothing replaced). */
  finish(): Promise<boolean>;
  /** Drops what was written; the snapshot in place stays. */
  abandon(): Promise<void>;
}

const rankSchema = z.object({ id: z.string(), name: z.string(), position: z.number() });
const memberSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  license: z.string(),
  departments: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      shortName: z.string().nullable(),
      primary: z.boolean(),
      callsign: z.string().nullable(),
      rank: rankSchema.nullable(),
    }),
  ),
});
/*
 * Version 1 holds the cache's last-known members. Version 2 adds `mirror`, the whole roster as the
 * mirror keeps it (its own format, read by the mirror: `core/mirror/saved-mirror.ts`); a version 1
 * file is read as one without it, and the next save writes version 2.
 */
const snapshotSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  savedAt: z.number(),
  members: z.array(z.object({ fetchedAt: z.number(), member: memberSchema })),
  mirror: z.unknown().optional(),
  /** Whose roster the members are (`communityKey`), when the key was verified before the save. */
  community: z.string().optional(),
});

/** Most members a snapshot holds; the most recently used are kept. */
export const SNAPSHOT_LIMIT = 5000;

export interface SnapshotSave {
  /** The mirror's part as JSON text in pieces (`mirrorJson`); left out when undefined. */
  mirror?: Iterable<string>;
  /** Most cache members kept (`SNAPSHOT_LIMIT`). */
  limit?: number;
  /** Whose roster the members are, when known. */
  community?: string | undefined;
}

/** Cache members written in one piece: a few milliseconds of work. */
const CACHED_PER_PIECE = 500;

/** What a snapshot held besides the members put back in the cache. */
export interface LoadedSnapshot {
  /** Last-known members put back in the cache. */
  members: number;
  /** This server's time of the save. */
  savedAt: number;
  /** The mirror's part as written (version 2), for the mirror to read; undefined when none. */
  mirror: unknown;
  /** Whose roster the members are; undefined when the file does not say. */
  community: string | undefined;
}

/**
 * Last-known-good members, so a server restarted during an outage still admits known members:
 * written at once (at stop). Returns how many cache members it holds.
 */
export function saveSnapshot(
  cache: MemberCache,
  store: SnapshotStore,
  now: number,
  save: SnapshotSave = {},
): number {
  const members = cachedMembers(cache, save.limit ?? SNAPSHOT_LIMIT);
  store.write([...snapshotJson(members, now, save)].join(''));
  return members.length;
}

/**
 * The same snapshot written without holding the game thread: one piece made and handed to the
 * store per `nextFrame`, the store writing it in the background and putting the file in place
 * whole. What is saved is what the cache and `save` hold when it begins. Returns how many cache
 * members it holds, or null when a write at once came meanwhile (at stop) and this one was dropped.
 */
export async function saveSnapshotInSlices(
  cache: MemberCache,
  store: BackgroundSnapshotStore,
  now: number,
  save: SnapshotSave,
  nextFrame: () => Promise<void>,
): Promise<number | null> {
  const members = cachedMembers(cache, save.limit ?? SNAPSHOT_LIMIT);
  const pieces = snapshotJson(members, now, save);
  const writer = store.begin();
  try {
    for (;;) {
      await nextFrame();
      if (!writer.current) return null;
      const piece = pieces.next();
      if (piece.done) break;
      await writer.append(piece.value);
    }
    return (await writer.finish()) ? members.length : null;
  } catch (error) {
    // Dropped for a newer write at once: what failed on the way does not matter.
    if (!writer.current) return null;
    await writer.abandon();
    throw error;
  }
}

interface CachedMember {
  fetchedAt: number;
  member: MemberView['member'];
}

/** The most recently used members of the cache, at most `limit`. */
function cachedMembers(cache: MemberCache, limit: number): CachedMember[] {
  const members: CachedMember[] = [];
  for (const { view, fetchedAt } of cache.knownMembers()) {
    if (members.length >= limit) break;
    members.push({ fetchedAt, member: view.member });
  }
  return members;
}

/** The snapshot as JSON text, in pieces of bounded work made as they are taken (version 2). */
function* snapshotJson(members: CachedMember[], now: number, save: SnapshotSave): Generator<string> {
  // A community left undefined is left out.
  yield `${JSON.stringify({ version: 2, savedAt: now, community: save.community }).slice(0, -1)},"members":[`;
  for (let from = 0; from < members.length; from += CACHED_PER_PIECE) {
    const piece = JSON.stringify(members.slice(from, from + CACHED_PER_PIECE)).slice(1, -1);
    yield `${from === 0 ? '' : ','}${piece}`;
  }
  yield ']';
  if (save.mirror !== undefined) {
    yield ',"mirror":';
    yield* save.mirror;
  }
  yield '}';
}

/** Loads a snapshot's members as stale records: kept for outages, never taken as fresh. */
export function loadSnapshot(
  cache: MemberCache,
  store: SnapshotStore,
  logger: Logger,
): LoadedSnapshot | null {
  let text: string | null;
  try {
    text = store.read();
  } catch (error) {
    logger.warn(`could not read the member snapshot: ${errorMessage(error)}`);
    return null;
  }
  if (text === null || text === '') return null;
  let parsed: z.infer<typeof snapshotSchema>;
  try {
    parsed = snapshotSchema.parse(JSON.parse(text));
  } catch {
    logger.warn('the member snapshot is unreadable and was ignored; it is rewritten on the next save.');
    return null;
  }
  // Oldest first, so the most recent end up most recently used.
  for (const { member, fetchedAt } of [...parsed.members].reverse()) {
    cache.remember(member.license, viewOf(member), fetchedAt);
  }
  const mirror = parsed.version === 2 ? parsed.mirror : undefined;
  return { members: parsed.members.length, savedAt: parsed.savedAt, mirror, community: parsed.community };
}
