import { LANES, type Lane, perLane } from '../../http';
import { countThatFits } from './query-budget';

/** One key looked up: the promise every caller of it shares, and where it waits. */
export interface PendingKey<V> {
  promise: Promise<V | null>;
  resolve(value: V | null): void;
  reject(reason: unknown): void;
  lane: Lane;
  sent: boolean;
}

/**
 * The keys looked up and not answered yet: each once, with the lane it waits in and whether it is
 * urgent, until its request answers. Which keys one request takes is decided here.
 */
export class WaitingKeys<V> {
  private readonly pending = new Map<string, PendingKey<V>>();
  private readonly waiting: Record<Lane, Set<string>> = perLane(() => new Set());
  private readonly urgent = new Set<string>();

  get(key: string): PendingKey<V> | undefined {
    return this.pending.get(key);
  }

  /** A key not looked up yet, waiting in `lane` from now. */
  add(key: string, lane: Lane, urgent: boolean): Promise<V | null> {
    let resolve!: PendingKey<V>['resolve'];
    let reject!: PendingKey<V>['reject'];
    const promise = new Promise<V | null>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pending.set(key, { promise, resolve, reject, lane, sent: false });
    if (urgent) this.urgent.add(key);
    this.waiting[lane].add(key);
    return promise;
  }

  markUrgent(key: string): void {
    this.urgent.add(key);
  }

  /** A key waiting in one lane waits in `lane` instead. */
  move(key: string, pending: PendingKey<V>, lane: Lane): void {
    this.waiting[pending.lane].delete(key);
    pending.lane = lane;
    this.waiting[lane].add(key);
  }

  count(lane: Lane): number {
    return this.waiting[lane].size;
  }

  /** Keys waiting in `lane` and the lanes served before it. */
  ahead(lane: Lane): number {
    let count = 0;
    for (const each of LANES) {
      count += this.waiting[each].size;
      if (each === lane) break;
    }
    return count;
  }

  hasUrgent(lane: Lane): boolean {
    if (this.urgent.size === 0) return false;
    for (const key of this.urgent) if (this.pending.get(key)?.lane === lane) return true;
    return false;
  }

  /**
   * Takes the keys one request in `lane` sends, at most `max` and as many as fit in `param`.
   * Urgent keys of the permit's lane first, then its others, then the room left filled from the
   * other lanes.
   */
  take(lane: Lane, max: number, param: string): string[] {
    const order = [lane, ...LANES.filter((each) => each !== lane)];
    const own = [...this.waiting[lane]];
    const urgentFirst = [
      ...own.filter((key) => this.urgent.has(key)),
      ...own.filter((key) => !this.urgent.has(key)),
    ];
    const candidates = [...urgentFirst, ...order.slice(1).flatMap((each) => [...this.waiting[each]])].slice(
      0,
      max,
    );
    const batch = candidates.slice(0, countThatFits(candidates, param));
    for (const key of batch) {
      const pending = this.pending.get(key);
      if (pending) this.waiting[pending.lane].delete(key);
      this.urgent.delete(key);
    }
    return batch;
  }

  /** The keys of a request sent: a later caller of one of them waits for this request. */
  markSent(batch: readonly string[]): void {
    for (const key of batch) {
      const pending = this.pending.get(key);
      if (pending) pending.sent = true;
    }
  }

  /** Every key waiting in `lane` fails with `error` (its permit was refused). */
  failLane(lane: Lane, error: unknown): void {
    for (const key of this.waiting[lane]) this.settle(key, (pending) => pending.reject(error));
    this.waiting[lane].clear();
  }

  settle(key: string, action: (pending: PendingKey<V>) => void): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    this.urgent.delete(key);
    action(pending);
  }
}
