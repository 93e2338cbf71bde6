import type { z } from 'zod';
import type { Logger } from '../ports';
import { RosterResponseError } from './roster-api-error';

/**
 * Keeps the records that match `schema` and skips the others with a warning naming their id,
 * so one odd record never breaks a whole answer.
 */
export function parseRecords<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  kind: string,
  logger: Logger,
): Array<z.output<S>> {
  const records: Array<z.output<S>> = [];
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      records.push(parsed.data);
      continue;
    }
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join('.') : '';
    logger.warn(
      `Skipped a ${kind} record from the roster service (id ${recordId(item)}): ${field ? `${field} ` : ''}${issue?.message ?? 'invalid'}.`,
    );
  }
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
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return 'unknown';
}
