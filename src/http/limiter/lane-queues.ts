import { LANES, type Lane, perLane } from './lane';

export interface WaitOptions {
  /** Go to the front of the lane: the second half of a job already started (a next page, assignments). */
  front?: boolean;
  signal?: AbortSignal;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  detach(): void;
}

/** Requests waiting for a permit, one first-in-first-out queue per lane; an abort leaves the queue. */
export class LaneQueues {
  private readonly queues: Record<Lane, Waiter[]> = perLane(() => []);

  /** Queues a waiter; `onLeave` runs when an abort takes it out of its queue. */
  wait(lane: Lane, options: WaitOptions, onLeave: () => void): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues[lane];
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason);
        onLeave();
      };
      const waiter: Waiter = { resolve, reject, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (options.front) queue.unshift(waiter);
      else queue.push(waiter);
    });
  }

  size(lane: Lane): number {
    return this.queues[lane].length;
  }

  /** Waiters in `lane` and in the lanes served before it. */
  ahead(lane: Lane): number {
    let count = 0;
    for (const each of LANES) {
      count += this.queues[each].length;
      if (each === lane) break;
    }
    return count;
  }

  isEmpty(): boolean {
    return LANES.every((lane) => this.queues[lane].length === 0);
  }

  /** Lets the first waiter of `lane` go. */
  release(lane: Lane): void {
    const waiter = this.queues[lane].shift();
    waiter?.detach();
    waiter?.resolve();
  }

  rejectAll(reason: () => unknown): void {
    for (const lane of LANES) {
      for (const waiter of this.queues[lane].splice(0)) {
        waiter.detach();
        waiter.reject(reason());
      }
    }
  }
}
