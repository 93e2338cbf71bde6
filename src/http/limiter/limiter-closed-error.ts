/** A request was still waiting for the rate limiter when the client was closed. */
export class LimiterClosedError extends Error {
  override readonly name = 'LimiterClosedError';

  constructor() {
    super('The rate limiter was closed while this request was waiting.');
  }
}

/**
 * A request in a lane whose caller waits in person (a rank change: a supervisor in chat) was
 * held by the rate limiter longer than it may be (a 429's pause that came after it was queued).
 */
export class LaneWaitTooLongError extends Error {
  override readonly name = 'LaneWaitTooLongError';

  constructor(readonly waitedMs: number) {
    super(`The rate limiter held this request for more than ${Math.round(waitedMs / 1000)} s.`);
  }
}
