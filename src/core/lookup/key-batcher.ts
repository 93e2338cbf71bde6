import { LANES, type Lane } from '../limiter/lane';
import type { Clock, TimerHandle } from '../ports';
import { countThatFits, MAX_VALUES_PER_REQUEST } from './query-budget';

/**
 * Fetches one batch of keys; a key missing from the answer resolves to `null`, a key answered
 * with an Error rejects with it (the others still resolve).
 */
export type FetchKeys<V> = (keys: readonly string[], lane: Lane) => Promise<Map<string, V | Error>>;

export interface KeyBatcherOptions<V> {
  /** Takes a limiter permit in `lane` (rejects at once while the key is suspended). */
  acquire(lane: Lane, signal: AbortSignal): Promise<void>;
  fetchBatch: FetchKeys<V>;
  /** The query parameter the keys are sent in, for the URL length budget. */
  param: string;
  clock: Clock;
  /** Most keys in one request (default and ceiling: the API's page size). */
  maxPerRequest?: number;
  /**
   * Under load, a small batch waits until this long after the lane's previous request, so that
   * a storm is served in full batches instead of spending the rate limit on one key at a time.
   * A lookup on a quiet lane still goes out at once. Per lane; a lane not named is never held.
   */
  holdMs?: Readonly<Partial<Record<Lane, number>>>;
  /**
   * True when holding is worth it: recent requests have drawn on the budget, yet the limiter would
   * grant a permit at once (were it to make the batch wait anyway, the batch grows meanwhile).
   */
  limiterBusy?(lane: Lane): boolean;
}

interface Pending<V> {
  promise: Promise<V | null>;
  resolve(value: V | null): void;
  reject(reason: unknown): void;
  lane: Lane;
  sent: boolean;
}

/**
 * Lookups by key, batched and coalesced. One request serves every concurrent lookup of a key.
 * While requests wait for the limiter, the keys waiting are merged into one request when a permit
 * comes (the most urgent lane first, then filled up from the others).
 */
export class KeyBatcher<V> {
  private readonly pending = new Map<string, Pending<V>>();
  private readonly waiting: Record<Lane, Set<string>> = {
    join: new Set(),
    refresh: new Set(),
    background: new Set(),
  };
  private readonly jobs = new Map<Lane, AbortController>();
  private readonly holds = new Map<Lane, TimerHandle>();
  private readonly lastSent: Record<Lane, number> = {
    join: -Infinity,
    refresh: -Infinity,
    background: -Infinity,
  };
  private readonly max: number;

  constructor(private readonly options: KeyBatcherOptions<V>) {
    this.max = Math.min(MAX_VALUES_PER_REQUEST, options.maxPerRequest ?? MAX_VALUES_PER_REQUEST);
  }

  /** The value for `key` (already normalised by the caller), or null when the service has none. */
  get(key: string, lane: Lane): Promise<V | null> {
    const known = this.pending.get(key);
    if (known) {
      if (!known.sent && LANES.indexOf(lane) < LANES.indexOf(known.lane)) this.move(key, known, lane);
      return known.promise;
    }
    let resolve!: Pending<V>['resolve'];
    let reject!: Pending<V>['reject'];
    const promise = new Promise<V | null>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pending.set(key, { promise, resolve, reject, lane, sent: false });
    this.waiting[lane].add(key);
    this.queueJob(lane);
    return promise;
  }

  /** Keys waiting for a permit in `lane` and the lanes served before it. */
  waitingAhead(lane: Lane): number {
    let count = 0;
    for (const each of LANES) {
      count += this.waiting[each].size;
      if (each === lane) break;
    }
    return count;
  }

  /** Drops pending holds (on close). */
  close(): void {
    for (const handle of this.holds.values()) this.options.clock.clearTimeout(handle);
    this.holds.clear();
  }

  private move(key: string, pending: Pending<V>, lane: Lane): void {
    this.waiting[pending.lane].delete(key);
    this.cancelIdleJob(pending.lane);
    pending.lane = lane;
    this.waiting[lane].add(key);
    this.queueJob(lane);
  }

  private queueJob(lane: Lane): void {
    if (this.jobs.has(lane)) return;
    const held = this.holds.get(lane);
    const full = this.waiting[lane].size >= this.max;
    if (held !== undefined) {
      if (!full) return;
      this.options.clock.clearTimeout(held);
      this.holds.delete(lane);
    }
    const wait = this.lastSent[lane] + (this.options.holdMs?.[lane] ?? 0) - this.options.clock.now();
    if (wait > 0 && !full && (this.options.limiterBusy?.(lane) ?? true)) {
      const handle = this.options.clock.setTimeout(() => {
        this.holds.delete(lane);
        if (this.waiting[lane].size > 0) this.queueJob(lane);
      }, wait);
      handle.unref?.();
      this.holds.set(lane, handle);
      return;
    }
    const controller = new AbortController();
    this.jobs.set(lane, controller);
    this.options.acquire(lane, controller.signal).then(
      () => {
        // A job aborted after its permit was granted leaves the lane to the job that replaced it.
        if (this.jobs.get(lane) !== controller) return;
        this.jobs.delete(lane);
        this.runJob(lane);
      },
      (error: unknown) => {
        if (this.jobs.get(lane) === controller) this.jobs.delete(lane);
        if (controller.signal.aborted) return;
        for (const key of this.waiting[lane]) this.settle(key, (pending) => pending.reject(error));
        this.waiting[lane].clear();
      },
    );
  }

  private runJob(lane: Lane): void {
    const batch = this.takeBatch(lane);
    if (batch.length > 0) this.lastSent[lane] = this.options.clock.now();
    for (const each of LANES) {
      if (this.waiting[each].size > 0) this.queueJob(each);
      else this.cancelIdleJob(each);
    }
    if (batch.length === 0) return;
    for (const key of batch) {
      const pending = this.pending.get(key);
      if (pending) pending.sent = true;
    }
    this.options.fetchBatch(batch, lane).then(
      (found) => {
        for (const key of batch) {
          const value = found.get(key);
          this.settle(key, (pending) =>
            value instanceof Error ? pending.reject(value) : pending.resolve(value ?? null),
          );
        }
      },
      (error: unknown) => {
        for (const key of batch) this.settle(key, (pending) => pending.reject(error));
      },
    );
  }

  // The permit's own lane first, then the room left filled from the other lanes.
  private takeBatch(lane: Lane): string[] {
    const order = [lane, ...LANES.filter((each) => each !== lane)];
    const candidates = order.flatMap((each) => [...this.waiting[each]]).slice(0, this.max);
    const batch = candidates.slice(0, countThatFits(candidates, this.options.param));
    for (const key of batch) {
      const pending = this.pending.get(key);
      if (pending) this.waiting[pending.lane].delete(key);
    }
    return batch;
  }

  private cancelIdleJob(lane: Lane): void {
    if (this.waiting[lane].size > 0) return;
    const held = this.holds.get(lane);
    if (held !== undefined) {
      this.options.clock.clearTimeout(held);
      this.holds.delete(lane);
    }
    const controller = this.jobs.get(lane);
    if (!controller) return;
    this.jobs.delete(lane);
    controller.abort();
  }

  private settle(key: string, action: (pending: Pending<V>) => void): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    action(pending);
  }
}
