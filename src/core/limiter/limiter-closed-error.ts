/** A request was still waiting for the rate limiter when the client was closed. */
export class LimiterClosedError extends Error {
  override readonly name = 'LimiterClosedError';

  constructor() {
    super('The rate limiter was closed while this request was waiting.');
  }
}
