import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SavedDay } from './key-day';

/** Where the day's count lives between runs; the FiveM side writes a file in the resource folder. */
export interface DayStore {
  read(): string | null;
  write(text: string): void;
}

const count = z.number().finite().min(0);
const schema = z.object({
  version: z.literal(1),
  /** Whose key the count is (`keyTag`): another key's day is not this one's. */
  key: z.string(),
  savedAt: z.number().finite(),
  buckets: z.array(z.tuple([z.number().finite(), count, count, count, count, count, count])).max(400),
  serviceDay: z.object({ limit: count, remaining: count, resetAt: z.number().finite() }).nullable(),
});

/**
 * Names the key a saved day belongs to by a hash of its id (the middle of
 * `<KEY_PREFIX>_<KEY_ID>_<SECRET>`), never the key, its secret or a hash of the secret: the file
 * says nothing that would help anyone use the key.
 */
export function keyTag(apiKey: string): string {
  const id = apiKey.trim().split('_')[1] ?? '';
  return createHash('sha256').update(`roster-day:${id}`, 'utf8').digest('hex').slice(0, 16);
}

export function encodeDay(key: string, day: SavedDay, now: number): string {
  return JSON.stringify({ version: 1, key, savedAt: now, ...day });
}

/** The saved day, or why it cannot be used: unreadable, or another key's. */
export function decodeDay(text: string, key: string): { day: SavedDay } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'it is not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { problem: 'it is not in the expected form' };
  if (parsed.data.key !== key) return { problem: 'it was saved for another API key' };
  return { day: { buckets: parsed.data.buckets, serviceDay: parsed.data.serviceDay } };
}
