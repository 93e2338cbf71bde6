import type { Clock } from '../ports';

/** What the join gate decided for a connecting license. */
export type GateOutcome = { admitted: true } | { admitted: false; message: string };

interface Decided {
  outcome: GateOutcome;
  at: number;
}

interface Waiter {
  since: number;
  settle(outcome: GateOutcome | undefined): void;
}

/** How long a decision is kept for a queue that asks after it (ConnectQueue asks 0.5 s later). */
const KEEP_MS = 5 * 60_000;

/**
 * The join gate's decisions by license, for a queue that must hear them before it places the
 * player (ConnectQueue's `OnJoin`): the gate decides once, the queue waits for that decision
 * instead of asking the roster a second time.
 */
export class GateOutcomes {
  private readonly decided = new Map<string, Decided>();
  private readonly waiters = new Map<string, Set<Waiter>>();

  constructor(private readonly clock: Clock) {}

  record(license: string, outcome: GateOutcome, at: number): void {
    this.decided.set(license, { outcome, at });
    const waiting = this.waiters.get(license);
    if (!waiting) return;
    for (const waiter of [...waiting]) {
      if (at < waiter.since) continue;
      waiting.delete(waiter);
      waiter.settle(outcome);
    }
    if (waiting.size === 0) this.waiters.delete(license);
  }

  /**
   * The decision made for `license` since `since` (when the player began connecting), at once if
   * made already; undefined when none comes by `until` (epoch ms).
   */
  wait(license: string, since: number, until: number): Promise<GateOutcome | undefined> {
    const known = this.decided.get(license);
    if (known && known.at >= since) return Promise.resolve(known.outcome);
    const delay = until - this.clock.now();
    if (delay <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiting = this.waiters.get(license) ?? new Set<Waiter>();
      this.waiters.set(license, waiting);
      const waiter: Waiter = {
        since,
        settle: (outcome) => {
          this.clock.clearTimeout(timer);
          resolve(outcome);
        },
      };
      const timer = this.clock.setTimeout(() => {
        waiting.delete(waiter);
        if (waiting.size === 0) this.waiters.delete(license);
        resolve(undefined);
      }, delay);
      waiting.add(waiter);
    });
  }

  /** Forgets decisions no queue will ask about any more. */
  sweep(): void {
    const oldest = this.clock.now() - KEEP_MS;
    for (const [license, { at }] of this.decided) if (at < oldest) this.decided.delete(license);
  }

  /** Answers every waiter with "no decision" (the resource is stopping). */
  stop(): void {
    for (const waiting of this.waiters.values()) for (const waiter of waiting) waiter.settle(undefined);
    this.waiters.clear();
    this.decided.clear();
  }
}
