import { z } from 'zod';
import type { Logger } from '../ports';
import { type MemberView, viewOf } from '../roster/member-view';
import type { MemberCache } from './member-cache';

/** Where the snapshot lives; the FiveM side writes a file in the resource folder, atomically. */
export interface SnapshotStore {
  read(): string | null;
  write(text: string): void;
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
  /** The mirror's part, in its own JSON shape; left out when undefined. */
  mirror?: unknown;
  /** Most cache members kept (`SNAPSHOT_LIMIT`). */
  limit?: number;
  /** Whose roster the members are, when known. */
  community?: string | undefined;
}

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

/** Last-known-good members, so a server restarted during an outage still admits known members. */
export function saveSnapshot(
  cache: MemberCache,
  store: SnapshotStore,
  now: number,
  save: SnapshotSave = {},
): number {
  const limit = save.limit ?? SNAPSHOT_LIMIT;
  const members: { fetchedAt: number; member: MemberView['member'] }[] = [];
  for (const { view, fetchedAt } of cache.knownMembers()) {
    if (members.length >= limit) break;
    members.push({ fetchedAt, member: view.member });
  }
  const mirror = save.mirror === undefined ? {} : { mirror: save.mirror };
  const community = save.community === undefined ? {} : { community: save.community };
  store.write(JSON.stringify({ version: 2, savedAt: now, members, ...mirror, ...community }));
  return members.length;
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
    logger.warn(`could not read the member snapshot: ${(error as Error).message}`);
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
