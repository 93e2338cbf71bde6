import { RosterServiceError } from '../../http';
import type { Clock, Logger } from '../../platform/ports';
import type { AheadEntry } from './audit-cursor';
import { StampSkew, type StampSkewState } from './stamp-skew';

/** The feed as `roster doctor` tells it. */
export interface AuditFeedState {
  running: boolean;
  healthy: boolean;
  failing: boolean;
  behind: boolean;
  /** This server's time of the last read that reached the end of the log. */
  caughtUpAt: number | null;
  gaps: number;
  lastGap: { reason: string; at: number } | null;
  /** Entries stamped too far ahead of the service's time; null when none was seen. */
  skew: StampSkewState | null;
}

export interface FeedHealthDeps {
  clock: Clock;
  logger: Logger;
  /** How often the feed reads, to tell a stalled feed from a working one. */
  intervalMs: number;
  /** Entries were lost: what the server holds must be read again in full. */
  gap(reason: string): void;
}

/**
 * How the feed is doing, apart from where it stands in the log: when a read last reached the end,
 * whether reads fail (said once, and once when they work again), the gaps it could not read, and
 * whether it stopped for good (a key that may not read the log), and the entries stamped too far
 * ahead of the service's time.
 */
export class FeedHealth {
  private caughtUpAt = Number.NEGATIVE_INFINITY;
  private failing = false;
  private stopped = false;
  private gaps = 0;
  private lastGap: AuditFeedState['lastGap'] = null;
  private readonly skew: StampSkew;

  constructor(private readonly deps: FeedHealthDeps) {
    this.skew = new StampSkew(deps.logger);
  }

  /** True while reads reach the end of the log on time (see `AuditFeed.healthy`). */
  get healthy(): boolean {
    return !this.stopped && this.deps.clock.now() - this.caughtUpAt < this.deps.intervalMs * 2.5;
  }

  get running(): boolean {
    return !this.stopped;
  }

  stop(): void {
    this.stopped = true;
  }

  /** A read reached the end of the log at `now`. */
  caughtUp(now: number): void {
    this.caughtUpAt = now;
  }

  state(behind: boolean): AuditFeedState {
    const caughtUp = this.caughtUpAt > Number.NEGATIVE_INFINITY ? this.caughtUpAt : null;
    return {
      running: !this.stopped,
      healthy: this.healthy,
      failing: this.failing,
      behind,
      caughtUpAt: caughtUp,
      gaps: this.gaps,
      lastGap: this.lastGap,
      skew: this.skew.state(),
    };
  }

  /** A read listed entries stamped too far ahead of the service's time. */
  ahead(entries: readonly AheadEntry[]): void {
    this.skew.note(entries, this.deps.clock.now());
  }

  /** The log answered a read. */
  readable(): void {
    if (this.failing)
      this.deps.logger.info('the audit log can be read again; changes reach players within a minute.');
    this.failing = false;
  }

  gap(reason: string): void {
    this.gaps++;
    this.lastGap = { reason, at: this.deps.clock.now() };
    this.deps.logger.warn(
      `the audit log could not be read in full (${reason}); the members this server holds are read again.`,
    );
    this.deps.gap(reason);
  }

  fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof RosterServiceError && error.code === 'insufficient_scope') {
      this.stopped = true;
      this.deps.logger.warn(
        `the audit log cannot be read (${message}); online players are kept current by the periodic refresh alone.`,
      );
      return;
    }
    if (!this.failing) {
      this.deps.logger.warn(
        `the audit log could not be read: ${message}. The periodic refresh keeps players current until it can.`,
      );
    }
    this.failing = true;
  }
}
