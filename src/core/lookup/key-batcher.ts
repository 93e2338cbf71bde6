import { LANES, type Lane, perLane } from '../limiter/lane';
import type { Clock, TimerHandle } from '../ports';
import { countThatFits, MAX_VALUES_PER_REQUEST } from './query-budget';

/**
 * Fetches one batch of keys; a key missing from the answer resolves to `null`, a key answered
 * with an Error rejects with it (the others still resolve).
 */
export type FetchKeys<V> = (keys: readonly string[], lane: Lane) => Promise<Map<string, V | Error>>;

export interface KeyBatcherOptions<V> {
  /**
   * Takes a limiter permit in `lane` (rejects at once while the key is suspended); `front` for the
   * second half of a job already started.
   */
  acquire(lane: Lane, signal: AbortSignal, front: boolean): Promise<void>;
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
   * Keys arriving closer together than this are a storm, and are held (default 100 ms). Players
   * joining one after another on a quiet server are further apart: each of them goes at once.
   */
  denseGapMs?: number;
  /**
   * True when the limiter's budget is running low though it would still grant a permit at once:
   * merging small batches then saves requests, whatever the keys' spacing.
   */
  limiterBusy?(lane: Lane): boolean;
}

export interface GetOptions {
  /** The second half of a job already started (a batch's assignments): no hold, front of the lane. */
  urgent?: boolean;
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
  private readonly waiting: Record<Lane, Set<string>> = perLane(() => new Set());
  private readonly urgent = new Set<string>();
  /** Until when a lane counts as in a storm: a hold after the last key that came close behind another. */
  private readonly denseUntil: Record<Lane, number> = perLane(() => -Infinity);
  private readonly lastArrival: Record<Lane, number> = perLane(() => -Infinity);
  private readonly jobs = new Map<Lane, AbortController>();
  private readonly holds = new Map<Lane, TimerHandle>();
  private readonly lastSent: Record<Lane, number> = perLane(() => -Infinity);
  private readonly max: number;

  constructor(private readonly options: KeyBatcherOptions<V>) {
    this.max = Math.min(MAX_VALUES_PER_REQUEST, options.maxPerRequest ?? MAX_VALUES_PER_REQUEST);
  }

  /** The value for `key` (already normalised by the caller), or null when the service has none. */
  get(key: string, lane: Lane, options: GetOptions = {}): Promise<V | null> {
    const known = this.pending.get(key);
    if (known) {
      if (known.sent) return known.promise;
      if (options.urgent) this.urgent.add(key);
      if (LANES.indexOf(lane) < LANES.indexOf(known.lane)) this.move(key, known, lane);
      else if (options.urgent) this.queueJob(known.lane);
      return known.promise;
    }
    if (!options.urgent) this.noteArrival(lane);
    let resolve!: Pending<V>['resolve'];
    let reject!: Pending<V>['reject'];
    const promise = new Promise<V | null>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pending.set(key, { promise, resolve, reject, lane, sent: false });
    if (options.urgent) this.urgent.add(key);
    this.waiting[lane].add(key);
    this.queueJob(lane);
    return promise;
  }

  // A key close behind the one before marks the lane as in a storm for one hold.
  private noteArrival(lane: Lane): void {
    const now = this.options.clock.now();
    if (now - this.lastArrival[lane] < (this.options.denseGapMs ?? 100)) {
      this.denseUntil[lane] = now + (this.options.holdMs?.[lane] ?? 0);
    }
    this.lastArrival[lane] = now;
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
    const { clock } = this.options;
    const held = this.holds.get(lane);
    const urgent = this.hasUrgent(lane);
    const full = this.waiting[lane].size >= this.max;
    if (held !== undefined) {
      if (!full && !urgent) return;
      clock.clearTimeout(held);
      this.holds.delete(lane);
    }
    const now = clock.now();
    const wait = this.lastSent[lane] + (this.options.holdMs?.[lane] ?? 0) - now;
    const storm = now < this.denseUntil[lane] || (this.options.limiterBusy?.(lane) ?? false);
    if (wait > 0 && !full && !urgent && storm) {
      const handle = clock.setTimeout(() => {
        this.holds.delete(lane);
        if (this.waiting[lane].size > 0) this.queueJob(lane);
      }, wait);
      handle.unref?.();
      this.holds.set(lane, handle);
      return;
    }
    const controller = new AbortController();
    this.jobs.set(lane, controller);
    this.options.acquire(lane, controller.signal, urgent).then(
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

  private hasUrgent(lane: Lane): boolean {
    if (this.urgent.size === 0) return false;
    for (const key of this.urgent) if (this.pending.get(key)?.lane === lane) return true;
    return false;
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

  // Urgent keys of the permit's lane first, then its others, then the room left filled from the
  // other lanes.
  private takeBatch(lane: Lane): string[] {
    const order = [lane, ...LANES.filter((each) => each !== lane)];
    const own = [...this.waiting[lane]];
    const urgentFirst = [
      ...own.filter((key) => this.urgent.has(key)),
      ...own.filter((key) => !this.urgent.has(key)),
    ];
    const candidates = [...urgentFirst, ...order.slice(1).flatMap((each) => [...this.waiting[each]])].slice(
      0,
      this.max,
    );
    const batch = candidates.slice(0, countThatFits(candidates, this.options.param));
    for (const key of batch) {
      const pending = this.pending.get(key);
      if (pending) this.waiting[pending.lane].delete(key);
      this.urgent.delete(key);
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
    this.urgent.delete(key);
    action(pending);
  }
}
