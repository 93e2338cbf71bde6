import type { Dispatcher } from 'undici';

/**
 * Stands in for src/http/keep-alive-pool.ts in the model tests (each test file mocks that
 * module with this one): the roster client the app builds opens its "pool" here and gets the
 * model service's dispatcher instead of sockets. Everything above the transport is the app's own.
 */
let next: Dispatcher | null = null;

/** The dispatcher the next roster client built gets. */
export function useTransport(dispatcher: Dispatcher): void {
  next = dispatcher;
}

/** True once the roster client took the dispatcher given to `useTransport`. */
export function transportTaken(): boolean {
  return next === null;
}

/** The same signature as the real one. */
export function keepAlivePool(_origin: string, _connections: number): Dispatcher {
  if (next === null) throw new Error('no model transport was given for this roster client');
  const dispatcher = next;
  next = null;
  return dispatcher;
}
