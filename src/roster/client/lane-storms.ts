import { type Lane, perLane } from '../../http';
import type { Clock } from '../../platform/ports';

export interface LaneStormOptions {
  clock: Clock;
  /** How long after the lane's previous request a small batch may wait, per lane; none when not named. */
  holdMs?: Readonly<Partial<Record<Lane, number>>> | undefined;
  /** Keys arriving closer together than this are a storm (default 100 ms). */
  denseGapMs?: number | undefined;
  /** True when the limiter's budget is running low though it would still grant a permit at once. */
  limiterBusy?: ((lane: Lane) => boolean) | undefined;
}

/**
 * Whether a lane is in a storm, and so how long a small batch in it waits for more keys: a storm
 * is served in full batches, a quiet lane's lookup goes out at once.
 */
export class LaneStorms {
  /** Until when a lane counts as in a storm: a hold after the last key that came close behind another. */
  private readonly denseUntil: Record<Lane, number> = perLane(() => -Infinity);
  private readonly lastArrival: Record<Lane, number> = perLane(() => -Infinity);
  private readonly lastSent: Record<Lane, number> = perLane(() => -Infinity);

  constructor(private readonly options: LaneStormOptions) {}

  // A key close behind the one before marks the lane as in a storm for one hold.
  arrived(lane: Lane): void {
    const now = this.options.clock.now();
    if (now - this.lastArrival[lane] < (this.options.denseGapMs ?? 100)) {
      this.denseUntil[lane] = now + (this.options.holdMs?.[lane] ?? 0);
    }
    this.lastArrival[lane] = now;
  }

  /** A request left in `lane` now. */
  sent(lane: Lane): void {
    this.lastSent[lane] = this.options.clock.now();
  }

  /** How long a small batch in `lane` waits for more keys now; 0 or less: it goes at once. */
  holdFor(lane: Lane): number {
    const now = this.options.clock.now();
    const wait = this.lastSent[lane] + (this.options.holdMs?.[lane] ?? 0) - now;
    const storm = now < this.denseUntil[lane] || (this.options.limiterBusy?.(lane) ?? false);
    return storm ? wait : 0;
  }
}
