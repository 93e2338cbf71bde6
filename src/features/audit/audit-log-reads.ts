import type { QueryValues } from '../../roster/client/roster-api';
import type { AuditCursor } from './audit-cursor';
import type { FeedHealth } from './feed-health';

export interface AuditLogReadsDeps {
  /** Pages of `GET /api/v1/audit-logs` with this query, oldest first. */
  list(query: QueryValues): Promise<unknown[]>;
  /** The two newest entries: where the log stands as the resource starts. */
  newest(): Promise<unknown>;
}

/**
 * The requests the feed makes of the audit log, through its cursor: anchoring once on the log's
 * newest entries, then listing the entries after the cursor. A failure is told to the feed's
 * health and answered as nothing read.
 */
export class AuditLogReads {
  private anchoring: Promise<boolean> | null = null;

  constructor(
    private readonly cursor: AuditCursor,
    private readonly health: FeedHealth,
    private readonly deps: AuditLogReadsDeps,
    /** The cursor was anchored by this: every entry up to its position counts as handled. */
    private readonly anchored: () => void,
  ) {}

  /** Anchors the cursor on the log's newest entries, one request at a time; false when it failed. */
  anchor(): Promise<boolean> {
    // Resumed from a saved position, or anchored already: nothing to ask.
    if (this.cursor.anchored) return Promise.resolve(true);
    this.anchoring ??= this.deps
      .newest()
      .then((newest) => {
        if (!this.cursor.anchored) {
          this.cursor.anchor(listOf(newest));
          this.anchored();
        }
        return true;
      })
      .catch((error: unknown) => {
        this.health.fail(error);
        return false;
      })
      .finally(() => {
        this.anchoring = null;
      });
    return this.anchoring;
  }

  /** The entries after the cursor (anchoring it first); null when the service could not answer. */
  async read(): Promise<unknown[] | null> {
    if (!this.cursor.anchored && !(await this.anchor())) return null;
    try {
      const after = this.cursor.nextRead();
      const entries = await this.deps.list({
        sort: 'createdAt',
        ...(after === undefined ? {} : { 'createdAt.after': after }),
      });
      this.health.readable();
      return entries;
    } catch (error) {
      this.health.fail(error);
      return null;
    }
  }
}

/** A list's data; anything else holds no entries. */
function listOf(data: unknown): unknown[] {
  return Array.isArray(data) ? data : [];
}
