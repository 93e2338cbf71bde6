/**
 * The scaled-down time every row runs in, on either side: a 2 s gate, 0.5 s requests, a refresh
 * every 2 s, records stale after 1 s.
 */
export const TIMEOUT_SECONDS = 2;
export const BASE_CONFIG = {
  api: { timeoutMs: 500 },
  refresh: { intervalSeconds: 2 },
  cache: { ttlSeconds: 1, negativeTtlSeconds: 1 },
};
/** Every deferral ends within gate.timeoutSeconds + 1 s. */
export const deadlineMs = (timeoutSeconds: number) => timeoutSeconds * 1000 + 1000;
export const DEADLINE_MS = deadlineMs(TIMEOUT_SECONDS);
/**
 * How long every fault lasts: longer than the client's whole retry chain (4 attempts of 0.5 s and
 * up to 3.5 s of backoff), so nothing started during the fault can succeed by outliving it, and long
 * enough for background refreshes to run into it.
 */
export const FAULT_MS = 8000;
/** A new player is decided by the service again within two gate deadlines of the fault's end. */
export const recoveryMs = (timeoutSeconds: number) => 2 * timeoutSeconds * 1000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` on real time until it holds or `timeoutMs` passes; returns whether it held. */
export async function holdsWithin(check: () => boolean, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= until) return false;
    await sleep(everyMs);
  }
}
