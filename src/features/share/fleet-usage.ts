import type { Clock } from '../../platform/ports';
import { BUDGET_DAY_MS, BUDGET_MINUTE_MS, type SharedBudget } from './share-store';
import { COPY_FRESH_MS } from './share-timing';
import type { Store } from './shared-record';

/** The key's requests as every server on it counts them, and this server's own part of them. */
export class FleetUsage {
  /** The key's counts, every server's, as last read (this minute, today). */
  budget: SharedBudget | null = null;
  /** This server's own part of them, by its minute and day. */
  private readonly own = { minute: -1, inMinute: 0, day: -1, inDay: 0 };

  constructor(
    private readonly store: Pick<Store, 'count' | 'budget'>,
    private readonly clock: Clock,
  ) {}

  /** Adds this server's requests (`sent` since the last count) to the shared counts and reads the fleet's. */
  async count(sent: number): Promise<void> {
    const now = this.clock.now();
    const minute = Math.floor(now / BUDGET_MINUTE_MS);
    const day = Math.floor(now / BUDGET_DAY_MS);
    if (minute !== this.own.minute) Object.assign(this.own, { minute, inMinute: 0 });
    if (day !== this.own.day) Object.assign(this.own, { day, inDay: 0 });
    this.own.inMinute += sent;
    this.own.inDay += sent;
    // Nothing sent: the counts are read, not written (one statement instead of two).
    this.budget = sent > 0 ? await this.store.count(sent) : await this.store.budget();
  }

  /**
   * What the other servers spent of the key (this minute, today): the shared counts less this
   * server's own part. Null when the counts are not current (last read at `syncedAt`).
   */
  others(syncedAt: number): SharedBudget | null {
    const { budget } = this;
    if (budget === null) return null;
    const now = this.clock.now();
    if (now - syncedAt >= COPY_FRESH_MS) return null;
    const sameMinute = Math.floor(now / BUDGET_MINUTE_MS) === this.own.minute;
    const sameDay = Math.floor(now / BUDGET_DAY_MS) === this.own.day;
    return {
      minute: sameMinute ? Math.max(0, budget.minute - this.own.inMinute) : 0,
      day: sameDay ? Math.max(0, budget.day - this.own.inDay) : 0,
    };
  }
}
