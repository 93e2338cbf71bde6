/**
 * Ids the audit log named while a full read ran, kept at most: past it the read cannot tell which
 * of its records a change reached, and does not count as in step with the log.
 */
export const MAX_NAMED_DURING_READ = 50_000;

/** The ids the audit log named while one read ran, at most `MAX_NAMED_DURING_READ`. */
export class NamedWindow {
  readonly ids = new Set<string>();
  overflowed = false;

  add(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.ids.size >= MAX_NAMED_DURING_READ) {
        this.overflowed = true;
        return;
      }
      this.ids.add(id);
    }
  }
}

/** What a full read left to do before its records are answered. */
export interface ReadReplaced {
  /**
   * Licenses of members the audit log named while the read ran: their records may predate the
   * change, so they are not answered until read again.
   */
  named: string[];
  /** More ids were named than could be kept: nothing the read holds is known to be in step. */
  overflowed: boolean;
}
