import type { Logger } from '../../platform/ports';
import type { AheadEntry } from './audit-cursor';
import { entryId } from './entry-identity';

/** The entries stamped too far ahead of the service's time, as `roster doctor` tells them. */
export interface StampSkewState {
  /** How many since start. */
  entries: number;
  /** The last one: its id (or its stamp when it has none), how far ahead, and when it was read (this server's time). */
  last: { entry: string; aheadMs: number; at: number };
}

/**
 * Keeps what the feed saw of entries stamped too far ahead of the service's time (a node of the
 * service with a fast clock): acted on, but never where the log is read from. Said once in the log;
 * `roster doctor` tells the count and the last one.
 */
export class StampSkew {
  private count = 0;
  private last: StampSkewState['last'] | null = null;

  constructor(private readonly logger: Logger) {}

  /** Entries read at `at` (this server's time) that were stamped too far ahead. */
  note(ahead: readonly AheadEntry[], at: number): void {
    const newest = ahead.at(-1);
    if (newest === undefined) return;
    if (this.count === 0) {
      this.logger.warn(
        `the audit log holds an entry (${nameOf(newest.entry)}) stamped ${aheadText(newest.aheadMs)} ahead of the service's own time: it is acted on, but the log is still read from the service's time.`,
      );
    }
    this.count += ahead.length;
    this.last = { entry: nameOf(newest.entry), aheadMs: newest.aheadMs, at };
  }

  state(): StampSkewState | null {
    return this.last === null ? null : { entries: this.count, last: { ...this.last } };
  }
}

/** A skew in minutes past two, else in seconds. */
export function aheadText(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

function nameOf(entry: unknown): string {
  const id = entryId(entry);
  if (id !== null) return id;
  const stamp = (entry as { createdAt?: unknown }).createdAt;
  return `stamped ${String(stamp).slice(0, 40)}`;
}
