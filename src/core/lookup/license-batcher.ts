import { LANES, type Lane } from '../limiter/lane';
import type { MemberLookup } from '../model';
import type { Logger } from '../ports';
import { countThatFits } from './query-budget';

/** Fetches one batch of licenses; the first request may use the permit the batcher already holds. */
export type FetchBatch = (licenses: readonly string[], lane: Lane) => Promise<Map<string, MemberLookup>>;

export interface LicenseBatcherOptions {
  /** Takes a limiter permit in `lane` (rejects at once while the key is suspended). */
  acquire(lane: Lane, signal: AbortSignal): Promise<void>;
  fetchBatch: FetchBatch;
  logger: Logger;
}

interface Pending {
  promise: Promise<MemberLookup | null>;
  resolve(value: MemberLookup | null): void;
  reject(reason: unknown): void;
  lane: Lane;
  sent: boolean;
}

const LICENSE = /^license:[0-9a-z]{1,128}$/;

/**
 * Lookups by license, batched and coalesced. One request serves every concurrent lookup of a
 * license. A lone lookup on an idle limiter goes out at once; while requests wait for the
 * limiter, the licenses waiting are merged into one request when a permit comes (the most
 * urgent lane first, then filled up from the others).
 */
export class LicenseBatcher {
  private readonly pending = new Map<string, Pending>();
  private readonly waiting: Record<Lane, Set<string>> = {
    join: new Set(),
    refresh: new Set(),
    background: new Set(),
  };
  private readonly jobs = new Map<Lane, AbortController>();

  constructor(private readonly options: LicenseBatcherOptions) {}

  /** The member holding `license` with their assignments, or null when not on the roster. */
  lookup(license: string, lane: Lane): Promise<MemberLookup | null> {
    const key = license.trim().toLowerCase();
    if (!LICENSE.test(key)) {
      this.options.logger.debug(
        `Not a game license, so not on the roster: ${JSON.stringify(license.slice(0, 60))}`,
      );
      return Promise.resolve(null);
    }
    const known = this.pending.get(key);
    if (known) {
      if (!known.sent && LANES.indexOf(lane) < LANES.indexOf(known.lane)) this.move(key, known, lane);
      return known.promise;
    }
    let resolve!: Pending['resolve'];
    let reject!: Pending['reject'];
    const promise = new Promise<MemberLookup | null>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pending.set(key, { promise, resolve, reject, lane, sent: false });
    this.waiting[lane].add(key);
    this.queueJob(lane);
    return promise;
  }

  /** Looks many licenses up (a refresh of online players); keyed by the licenses as given. */
  async lookupMany(licenses: readonly string[], lane: Lane): Promise<Map<string, MemberLookup | null>> {
    const answers = await Promise.all(licenses.map((license) => this.lookup(license, lane)));
    return new Map(licenses.map((license, index) => [license, answers[index] ?? null]));
  }

  /** Licenses waiting for a permit in `lane` and the lanes served before it. */
  waitingAhead(lane: Lane): number {
    let count = 0;
    for (const each of LANES) {
      count += this.waiting[each].size;
      if (each === lane) break;
    }
    return count;
  }

  private move(key: string, pending: Pending, lane: Lane): void {
    this.waiting[pending.lane].delete(key);
    this.cancelIdleJob(pending.lane);
    pending.lane = lane;
    this.waiting[lane].add(key);
    this.queueJob(lane);
  }

  private queueJob(lane: Lane): void {
    if (this.jobs.has(lane)) return;
    const controller = new AbortController();
    this.jobs.set(lane, controller);
    this.options.acquire(lane, controller.signal).then(
      () => {
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
        for (const key of batch) this.settle(key, (pending) => pending.resolve(found.get(key) ?? null));
      },
      (error: unknown) => {
        for (const key of batch) this.settle(key, (pending) => pending.reject(error));
      },
    );
  }

  // The permit's own lane first, then the room left filled from the other lanes.
  private takeBatch(lane: Lane): string[] {
    const order = [lane, ...LANES.filter((each) => each !== lane)];
    const candidates = order.flatMap((each) => [...this.waiting[each]]);
    const batch = candidates.slice(0, countThatFits(candidates, 'gameLicense'));
    for (const key of batch) {
      const pending = this.pending.get(key);
      if (pending) this.waiting[pending.lane].delete(key);
    }
    return batch;
  }

  private cancelIdleJob(lane: Lane): void {
    if (this.waiting[lane].size > 0) return;
    const controller = this.jobs.get(lane);
    if (!controller) return;
    this.jobs.delete(lane);
    controller.abort();
  }

  private settle(key: string, action: (pending: Pending) => void): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    action(pending);
  }
}
