import { createHash } from 'node:crypto';

/**
 * Names the API key in the shared tables by a hash of its id (the middle of
 * `<KEY_PREFIX>_<KEY_ID>_<SECRET>`), never the key, its secret or a hash of the secret: the
 * database says nothing that would help anyone use the key. Every server on one key computes
 * the same name; another key's rows are never read.
 */
export function shareKeyHash(apiKey: string): string {
  const id = apiKey.trim().split('_')[1] ?? '';
  return createHash('sha256').update(`roster-share:${id}`, 'utf8').digest('hex');
}
