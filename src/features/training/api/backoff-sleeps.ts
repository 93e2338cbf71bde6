import type { Clock, TimerHandle } from '../../../platform/ports';

/**
 * The waits between retries after an outage. Closing ends every one at once (resolved, so the
 * request goes on to find the client closed) and leaves no timer behind.
 */
export class BackoffSleeps {
  private readonly sleeps = new Set<{ handle: TimerHandle; resolve: () => void }>();

  constructor(private readonly clock: Clock) {}

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const entry = { handle: this.clock.setTimeout(() => done(), ms), resolve };
      const done = () => {
        this.sleeps.delete(entry);
        resolve();
      };
      this.sleeps.add(entry);
    });
  }

  /** Ends every wait under way now. */
  wakeAll(): void {
    for (const entry of this.sleeps) {
      this.clock.clearTimeout(entry.handle);
      entry.resolve();
    }
    this.sleeps.clear();
  }
}
