import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';

/**
 * A request stopped before any byte of it left the process: a 429 paused every request, or the key
 * was refused, after the limiter had let this one go. It reached nobody; the caller decides again
 * (waits for the limiter, or fails as every request does while the key is refused).
 */
export class HeldBeforeSending extends Error {
  override readonly name = 'HeldBeforeSending';
  constructor() {
    super('held back before sending: requests are stopped');
  }
}

/**
 * A dispatcher that lets no request out while `held()` says so (a 429 pause, a refused key). The
 * limiter's grant comes before the request is sent, and between the two it may still wait: for a
 * new connection, for a busy pool's socket, for the resend after a closed keep-alive socket. An
 * answer to another request meanwhile that stops every request must stop this one too. So `held()`
 * is asked when the request is handed over and again at the last synchronous moment before undici
 * writes it: `onRequestStart`, which undici calls right before it puts the request on a socket
 * (client-h1.js `writeH1`). A held request fails with {@link HeldBeforeSending}; nothing of it was
 * written.
 */
export function holdWhile(dispatcher: Dispatcher, held: () => boolean): Dispatcher {
  // A stand-in that is no undici Dispatcher (it answers `request` itself) has no dispatch to hold.
  if (typeof dispatcher.compose !== 'function') return dispatcher;
  return dispatcher.compose((dispatch) => (options, handler) => {
    if (held()) throw new HeldBeforeSending();
    return dispatch(options, new HoldingHandler(handler, held));
  });
}

/** Passes every callback on; only the start of the request is checked against `held()`. */
class HoldingHandler implements Dispatcher.DispatchHandler {
  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly held: () => boolean,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    // Aborting here ends the request unsent (undici checks `aborted` right after this call); the
    // socket it would have used is closed, which costs a connection and nothing else.
    if (this.held()) {
      controller.abort(new HeldBeforeSending());
      return;
    }
    this.inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Duplex,
  ): void {
    this.inner.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    this.inner.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.inner.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    this.inner.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.inner.onResponseError?.(controller, error);
  }
}
