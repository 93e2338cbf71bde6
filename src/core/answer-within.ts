import type { Clock } from './ports';

/**
 * `work`'s outcome, or `late()`'s after `ms`: an answer that never waits longer than the caller
 * was promised, however long the service makes the work itself wait. `late` may throw to reject.
 * The work goes on; its outcome is then dropped (and a rejection of it is not unhandled).
 */
export function answerWithin<T>(work: Promise<T>, ms: number, clock: Clock, late: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = clock.setTimeout(() => {
      if (settled) return;
      settled = true;
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** `work`, or an error saying `what` did not answer within `ms` (for `roster doctor`). */
export function withinOrFail<T>(work: Promise<T>, ms: number, clock: Clock, what: string): Promise<T> {
  return answerWithin(work, ms, clock, () => {
    throw new Error(`${what} did not answer within ${Math.round(ms / 1000)} s.`);
  });
}
