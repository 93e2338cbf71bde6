import { Pool } from 'undici';

/** How long an idle socket is kept; servers commonly close theirs after 5 s. */
export const IDLE_SOCKET_MS = 4_000;

/**
 * A keep-alive pool that works under FXServer's timers. undici runs its headers, body and connect
 * timeouts on "fast timers" that share one host timer kept alive with `refresh()`; under timer.js
 * (data/shared/citizen/scripting/v8/timer.js) `refresh()` of a timer that already fired does
 * nothing, so after the first run none of them fires again and every one created is kept in
 * undici's list for good. Those timeouts are therefore off here (0): the caller's deadline, a
 * plain one-shot `setTimeout`, aborts the request instead. The idle-socket timer undici uses is a
 * plain one-shot `setTimeout` too, so keep-alive sockets are still closed when idle; it closes a
 * second before the server's own advertised `Keep-Alive: timeout`.
 */
export function keepAlivePool(origin: string, connections: number): Pool {
  return new Pool(origin, {
    connections,
    keepAliveTimeout: IDLE_SOCKET_MS,
    keepAliveMaxTimeout: IDLE_SOCKET_MS,
    keepAliveTimeoutThreshold: 1_000,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: { timeout: 0 },
  });
}
