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
const snapshotSchema = z.object({
  version: z.literal(1),
  savedAt: z.number(),
  members: z.array(z.object({ fetchedAt: z.number(), member: memberSchema })),
});

/** Most members a snapshot holds; the most recently used are kept. */
export const SNAPSHOT_LIMIT = 5000;

/** Last-known-good members, so a server restarted during an outage still admits known members. */
export function saveSnapshot(
  cache: MemberCache,
  store: SnapshotStore,
  now: number,
  limit = SNAPSHOT_LIMIT,
): number {
  const members: { fetchedAt: number; member: MemberView['member'] }[] = [];
  for (const { view, fetchedAt } of cache.knownMembers()) {
    if (members.length >= limit) break;
    members.push({ fetchedAt, member: view.member });
  }
  store.write(JSON.stringify({ version: 1, savedAt: now, members }));
  return members.length;
}

/** Loads a snapshot as stale records: kept for outages, never taken as fresh. */
export function loadSnapshot(cache: MemberCache, store: SnapshotStore, logger: Logger): number {
  let text: string | null;
  try {
    text = store.read();
  } catch (error) {
    logger.warn(`could not read the member snapshot: ${(error as Error).message}`);
    return 0;
  }
  if (text === null || text === '') return 0;
  let parsed: z.infer<typeof snapshotSchema>;
  try {
    parsed = snapshotSchema.parse(JSON.parse(text));
  } catch {
    logger.warn('the member snapshot is unreadable and was ignored; it is rewritten on the next save.');
    return 0;
  }
  // Oldest first, so the most recent end up most recently used.
  for (const { member, fetchedAt } of [...parsed.members].reverse()) {
    cache.remember(member.license, viewOf(member), fetchedAt);
  }
  return parsed.members.length;
}
