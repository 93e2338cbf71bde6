import type { z } from 'zod';
import { RosterResponseError } from '../../http';
import type { Logger } from '../../platform/ports';

/**
 * Keeps the records that match `schema` and skips the others with one warning for the whole
 * answer: how many, and the first one's id and problem (one line per record would let one bad
 * answer flood the console).
 */
export function parseRecords<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  kind: string,
  logger: Logger,
): Array<z.output<S>> {
  const records: Array<z.output<S>> = [];
  let skipped = 0;
  let first = '';
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      records.push(parsed.data);
      continue;
    }
    if (skipped++ > 0) continue;
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join('.') : '';
    first = `id ${recordId(item)}: ${field ? `${field} ` : ''}${issue?.message ?? 'invalid'}`;
  }
  if (skipped === 1) logger.warn(`Skipped a ${kind} record from the roster service (${first}).`);
  else if (skipped > 1)
    logger.warn(
      `Skipped ${skipped} ${kind} records from the roster service that could not be read (first: ${first}).`,
    );
  return records;
}

/** The `data` array of a list answer; anything else is a malformed answer. */
export function listData(data: unknown, request: string, requestId: string | null): unknown[] {
  if (Array.isArray(data)) return data;
  throw new RosterResponseError(
    `The roster service answered ${request} with data that is not a list. The service's API may have changed.`,
    { code: 'malformed_response', kind: 'outage', status: 200, requestId },
  );
}

function recordId(item: unknown): string {
  if (typeof item === 'object' && item !== null && 'id' in item) {
    const { id } = item as { id: unknown };
    if (typeof id === 'string' || typeof id === 'number') return String(id).slice(0, 40);
  }
  return 'unknown';
}
