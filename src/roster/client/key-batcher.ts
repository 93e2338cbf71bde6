import { LANES, type Lane } from '../../http';
import type { Clock, TimerHandle } from '../../platform/ports';
import { LaneStorms } from './lane-storms';
import { MAX_VALUES_PER_REQUEST } from './query-budget';
import { type PendingKey, WaitingKeys } from './waiting-keys';

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

/**
 * Lookups by key, batched and coalesced. One request serves every concurrent lookup of a key.
 * While requests wait for the limiter, the keys waiting are merged into one request when a permit
 * comes (the most urgent lane first, then filled up from the others).
 */
export class KeyBatcher<V> {
  private readonly keys = new WaitingKeys<V>();
  private readonly storms: LaneStorms;
  private readonly jobs = new Map<Lane, AbortController>();
  private readonly holds = new Map<Lane, TimerHandle>();
  private readonly max: number;

  constructor(private readonly options: KeyBatcherOptions<V>) {
    this.storms = new LaneStorms(options);
    this.max = Math.min(MAX_VALUES_PER_REQUEST, options.maxPerRequest ?? MAX_VALUES_PER_REQUEST);
  }

  /** The value for `key` (already normalised by the caller), or null when the service has none. */
  get(key: string, lane: Lane, options: GetOptions = {}): Promise<V | null> {
    const known = this.keys.get(key);
    if (known) {
      if (known.sent) return known.promise;
      if (options.urgent) this.keys.markUrgent(key);
      if (LANES.indexOf(lane) < LANES.indexOf(known.lane)) this.move(key, known, lane);
      else if (options.urgent) this.queueJob(known.lane);
      return known.promise;
    }
    if (!options.urgent) this.storms.arrived(lane);
    const promise = this.keys.add(key, lane, options.urgent ?? false);
    this.queueJob(lane);
    return promise;
  }

  /** Keys waiting for a permit in `lane` and the lanes served before it. */
  waitingAhead(lane: Lane): number {
    return this.keys.ahead(lane);
  }

  /** Drops pending holds (on close). */
  close(): void {
    for (const handle of this.holds.values()) this.options.clock.clearTimeout(handle);
    this.holds.clear();
  }

  private move(key: string, pending: PendingKey<V>, lane: Lane): void {
    const from = pending.lane;
    this.keys.move(key, pending, lane);
    this.cancelIdleJob(from);
    this.queueJob(lane);
  }

  private queueJob(lane: Lane): void {
    if (this.jobs.has(lane)) return;
    const { clock } = this.options;
    const held = this.holds.get(lane);
    const urgent = this.keys.hasUrgent(lane);
    const full = this.keys.count(lane) >= this.max;
    if (held !== undefined) {
      if (!full && !urgent) return;
      clock.clearTimeout(held);
      this.holds.delete(lane);
    }
    const wait = this.storms.holdFor(lane);
    if (wait > 0 && !full && !urgent) {
      const handle = clock.setTimeout(() => {
        this.holds.delete(lane);
        if (this.keys.count(lane) > 0) this.queueJob(lane);
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
        this.keys.failLane(lane, error);
      },
    );
  }

  private runJob(lane: Lane): void {
    const batch = this.keys.take(lane, this.max, this.options.param);
    if (batch.length > 0) this.storms.sent(lane);
    for (const each of LANES) {
      if (this.keys.count(each) > 0) this.queueJob(each);
      else this.cancelIdleJob(each);
    }
    if (batch.length === 0) return;
    this.keys.markSent(batch);
    this.options.fetchBatch(batch, lane).then(
      (found) => {
        for (const key of batch) {
          const value = found.get(key);
          this.keys.settle(key, (pending) =>
            value instanceof Error ? pending.reject(value) : pending.resolve(value ?? null),
          );
        }
      },
      (error: unknown) => {
        for (const key of batch) this.keys.settle(key, (pending) => pending.reject(error));
      },
    );
  }

  private cancelIdleJob(lane: Lane): void {
    if (this.keys.count(lane) > 0) return;
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
}
