import type { Clock } from './ports';

/**
 * `work`'s outcome, or `late()`'s after `ms`: an answer that never waits longer than the caller
 * was promised, however long the service makes the work itself wait. `late` may throw to reject.
 * The work goes on; its outcome is then dropped (and a rejection of it is not unhandled).
 * `cutShort` settling (the resource stopping: nothing of it runs afterwards, timers included)
 * gives `late()`'s answer at once.
 */
export function answerWithin<T>(
  work: Promise<T>,
  ms: number,
  clock: Clock,
  late: () => T,
  cutShort?: Promise<unknown>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const answerLate = () => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    };
    const timer = clock.setTimeout(answerLate, ms);
    cutShort?.then(answerLate, answerLate);
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
