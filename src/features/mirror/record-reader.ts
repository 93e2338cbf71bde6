import type { z } from 'zod';
import type { Logger } from '../../platform/ports';

/**
 * Reads the records of a long list page by page with the client's own record schemas, skipping
 * those that do not fit; `finish` says once, for the whole read, how many were skipped and why the
 * first was (a whole roster read page by page must not warn once per page).
 */
export class RecordReader<S extends z.ZodType> {
  private skipped = 0;
  private first = '';

  constructor(
    private readonly schema: S,
    private readonly kind: string,
  ) {}

  read(items: readonly unknown[]): Array<z.output<S>> {
    const records: Array<z.output<S>> = [];
    for (const item of items) {
      const parsed = this.schema.safeParse(item);
      if (parsed.success) {
        records.push(parsed.data);
        continue;
      }
      if (this.skipped++ > 0) continue;
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
      this.first = `id ${idOf(item)}: ${field}${issue?.message ?? 'invalid'}`;
    }
    return records;
  }

  /** One warning when any record was skipped. */
  finish(logger: Logger, read: string): void {
    if (this.skipped === 0) return;
    logger.warn(
      `${read}: skipped ${this.skipped} ${this.kind} record(s) that could not be read (first: ${this.first}).`,
    );
  }
}

function idOf(item: unknown): string {
  if (typeof item === 'object' && item !== null && 'id' in item) {
    const { id } = item as { id: unknown };
    if (typeof id === 'string' || typeof id === 'number') return String(id).slice(0, 40);
  }
  return 'unknown';
}
