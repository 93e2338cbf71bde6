import type { Clock } from '../platform/ports';
import { type HeaderBag, headerValue } from './limiter/rate-limit-headers';

/** The service's time as far as one reading can tell: what it claims, and whether it said so. */
export interface ServiceTime {
  /** The service's time now (ms since the epoch), to the second. */
  now(): number;
  /** How far the service's clock is ahead of this server's (ms; negative: behind); null until told. */
  readonly offsetMs: number | null;
}

/**
 * The service's own time, as the `Date` header of its latest answer says, carried forward on this
 * server's clock between answers. This server's clock may be minutes off the service's; the
 * service's stamps (`createdAt`) are judged against this, never against this server's clock. Until
 * an answer brings a readable `Date`, this server's clock stands in.
 */
export class ServiceClock implements ServiceTime {
  private offset: number | null = null;

  constructor(private readonly clock: Clock) {}

  get offsetMs(): number | null {
    return this.offset;
  }

  now(): number {
    return this.clock.now() + (this.offset ?? 0);
  }

  /** Takes the service's time from an answer's headers, if they carry a readable `Date`. */
  observe(headers: HeaderBag): void {
    const text = headerValue(headers, 'date');
    if (text === undefined) return;
    const at = Date.parse(text);
    // The header has one-second resolution: the service's time is within a second after it.
    if (Number.isFinite(at)) this.offset = at - this.clock.now();
  }
}
