import type { OtherServer, OthersUsage } from '../../http';
import type { Clock } from '../../platform/ports';
import { BUDGET_DAY_MS, PACE_RECENT_MS, type SharedBudget, type SharedPace } from './share-store';
import { COPY_FRESH_MS } from './share-timing';
import type { Store } from './shared-record';

/**
 * The key's requests as every server on it counts them: the minute and the day for the whole key,
 * and each server's requests in the last minute (short windows on the database's clock, summed as
 * the minute rolls), from which the others' part and who is sending are known.
 */
export class FleetUsage {
  /** The key's counts, every server's, as last read (this minute, today). */
  budget: SharedBudget | null = null;
  /** Each server's requests in the last minute, as last read. */
  private pace: SharedPace | null = null;
  /** This server's own part of today's count, by its day. */
  private readonly own = { day: -1, inDay: 0 };

  constructor(
    private readonly store: Pick<Store, 'count' | 'budget' | 'pace'>,
    private readonly clock: Clock,
    /**
     * This server's run in the shared counts: two servers named alike are still two servers, and
     * a run that stopped keeps its requests in the minute until they leave it.
     */
    private readonly server: string,
  ) {}

  /** Adds this server's requests (`sent` since the last count) to the shared counts and reads the fleet's. */
  async count(sent: number): Promise<void> {
    const day = Math.floor(this.clock.now() / BUDGET_DAY_MS);
    if (day !== this.own.day) Object.assign(this.own, { day, inDay: 0 });
    this.own.inDay += sent;
    // Nothing sent: the counts are read, not written.
    const [budget, pace] = await Promise.all([
      sent > 0 ? this.store.count(sent) : this.store.budget(),
      this.store.pace(this.server, sent),
    ]);
    this.budget = budget;
    this.pace = pace;
  }

  /**
   * What the other servers spent of the key: their requests in the last minute, each one's part
   * of it, and today's (the shared count less this server's own part). Null when the counts are
   * not current (last read at `syncedAt`).
   */
  others(syncedAt: number): OthersUsage | null {
    const { budget, pace } = this;
    if (budget === null || pace === null) return null;
    const now = this.clock.now();
    if (now - syncedAt >= COPY_FRESH_MS) return null;
    const servers: OtherServer[] = [];
    for (const [server, { requests, idleMs }] of pace) {
      if (server !== this.server)
        servers.push({ minute: requests, recent: idleMs + (now - syncedAt) < PACE_RECENT_MS });
    }
    const sameDay = Math.floor(now / BUDGET_DAY_MS) === this.own.day;
    return {
      minute: servers.reduce((sum, other) => sum + other.minute, 0),
      day: sameDay ? Math.max(0, budget.day - this.own.inDay) : 0,
      servers,
    };
  }
}
