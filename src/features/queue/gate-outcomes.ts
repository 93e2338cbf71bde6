import type { Clock } from '../../platform/ports';

/** What the join gate decided for one connection. */
export type GateOutcome = { admitted: true } | { admitted: false; message: string };

interface Decided {
  outcome: GateOutcome;
  at: number;
}

type Waiter = (outcome: GateOutcome | undefined) => void;

/** How long a decision is kept for a queue that asks after it (ConnectQueue asks 0.5 s later). */
const KEEP_MS = 5 * 60_000;

/**
 * The join gate's decisions by connection (the player's temporary id, which FXServer never gives
 * twice), for a queue that must hear them before it places the player (ConnectQueue's `OnJoin`):
 * the gate decides once, the queue waits for that decision instead of asking the roster a second
 * time. Keyed by connection, a decision made before the queue side heard of the player (the
 * bypass ACE decides in the same handler call) is found all the same, and one made for an earlier
 * connection of the same license never answers for a later one.
 */
export class GateOutcomes {
  private readonly decided = new Map<string, Decided>();
  private readonly waiters = new Map<string, Set<Waiter>>();

  constructor(private readonly clock: Clock) {}

  record(connection: string, outcome: GateOutcome): void {
    this.decided.set(connection, { outcome, at: this.clock.now() });
    const waiting = this.waiters.get(connection);
    if (!waiting) return;
    this.waiters.delete(connection);
    for (const settle of waiting) settle(outcome);
  }

  /** The decision for `connection`, at once if made already; undefined when none comes by `until` (epoch ms). */
  wait(connection: string, until: number): Promise<GateOutcome | undefined> {
    const known = this.decided.get(connection);
    if (known) return Promise.resolve(known.outcome);
    const delay = until - this.clock.now();
    if (delay <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiting = this.waiters.get(connection) ?? new Set<Waiter>();
      this.waiters.set(connection, waiting);
      const settle: Waiter = (outcome) => {
        this.clock.clearTimeout(timer);
        resolve(outcome);
      };
      const timer = this.clock.setTimeout(() => {
        waiting.delete(settle);
        if (waiting.size === 0 && this.waiters.get(connection) === waiting) this.waiters.delete(connection);
        resolve(undefined);
      }, delay);
      waiting.add(settle);
    });
  }

  /** Forgets decisions no queue will ask about any more. */
  sweep(): void {
    const oldest = this.clock.now() - KEEP_MS;
    for (const [connection, { at }] of this.decided) if (at < oldest) this.decided.delete(connection);
  }

  /** Answers every waiter with "no decision" (the resource is stopping). */
  stop(): void {
    const waiting = [...this.waiters.values()];
    this.waiters.clear();
    this.decided.clear();
    for (const settles of waiting) for (const settle of settles) settle(undefined);
  }
}
