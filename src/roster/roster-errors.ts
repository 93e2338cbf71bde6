import { isKeyRefused } from '../http/key-suspension';
import type { Clock, Logger } from '../platform/ports';

/** A read of the roster that failed: what it was, why, and when (this server's time). */
export interface RosterError {
  message: string;
  at: number;
}

/**
 * What went wrong reading the roster (departments and ranks, a lookup, a refresh): warned about as
 * it happens, the last one kept for `roster status` and the panel.
 */
export class RosterErrors {
  last: RosterError | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  note(error: unknown, context: string): void {
    const message = error instanceof Error ? error.message : String(error);
    this.last = { message: `${context}: ${message}`, at: this.clock.now() };
    // A refused key is said once by the client itself, not again by every read it stops.
    if (!isKeyRefused(error)) this.logger.warn(`${context}: ${message}`);
  }
}
