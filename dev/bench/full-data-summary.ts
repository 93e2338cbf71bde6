import type { RequestLogEntry } from '../mock-http/mock-counters';
import { type JoinSample, percentile } from './join-storm';

export interface FullDataSummary {
  admitted: number;
  /** Admitted players whose data was complete in a second resource's playerJoining handler. */
  completeAtJoining: number;
  /** Admitted players still without complete data 1 s after the storm's last decision. */
  incompleteAfterLastDecision1s: number;
  /** Requests from the storm's first connection until every admitted player's data was complete. */
  requestsUntilComplete: number;
  /** Connect → complete data, p99 and max over admitted players (never complete: Infinity). */
  p99ToCompleteMs: number;
  maxToCompleteMs: number;
}

/** When a probe saw each player's data complete, in the same time base as the samples. */
export interface CompleteTimes {
  completeAt(license: string): number | null;
  completeAtJoining(license: string): boolean;
}

/**
 * What the players' data cost until it was complete for every admitted player. `log` is the
 * mock's request log from the storm's first connection on; `toEpoch` turns the samples' time
 * base into the log's (`Date.now()`) one.
 */
export function summarizeFullData(
  samples: readonly JoinSample[],
  times: CompleteTimes,
  log: readonly RequestLogEntry[],
  toEpoch: number,
): FullDataSummary {
  const admitted = samples.filter((s) => s.admitted && s.id !== null);
  const lastDecision = Math.max(...samples.map((s) => s.decidedAt ?? 0));
  const toComplete: number[] = [];
  let incomplete1s = 0;
  let lastComplete = 0;
  for (const sample of admitted) {
    const at = times.completeAt(sample.player.license);
    if (at === null || at > lastDecision + 1000) incomplete1s++;
    toComplete.push(at === null ? Number.POSITIVE_INFINITY : at - sample.connectAt);
    lastComplete = Math.max(lastComplete, at ?? Number.POSITIVE_INFINITY);
  }
  toComplete.sort((a, b) => a - b);
  const until = toEpoch + lastComplete;
  return {
    admitted: admitted.length,
    completeAtJoining: admitted.filter((s) => times.completeAtJoining(s.player.license)).length,
    incompleteAfterLastDecision1s: incomplete1s,
    requestsUntilComplete: Number.isFinite(until)
      ? log.filter((e) => e.time <= until).length
      : Number.POSITIVE_INFINITY,
    p99ToCompleteMs: percentile(toComplete, 0.99),
    maxToCompleteMs: toComplete.at(-1) ?? 0,
  };
}
