import type { OthersUsage } from './fleet-usage';
import type { SlidingWindow } from './sliding-window';

const MINUTE_MS = 60_000;

/**
 * This server's part of the key's minute while `othersSending` other servers send on it: an even
 * part each. One request per server is left aside for the counts' lag (each server's sends reach
 * the others about a second late).
 */
export function fairPart(perMinute: number, othersSending: number): number {
  const servers = othersSending + 1;
  return Math.max(1, Math.floor((perMinute - servers) / servers));
}

/**
 * Keeps this server to its part of the key's minute while other servers send on the key, its
 * requests spread evenly: when the fleet wants more than the key allows, each server's requests
 * are paced a part's spacing apart instead of the fleet spending the minute together and then
 * stalling together. Over any minute this server sends at most its part. Requests sent before the
 * part shrank (a storm beginning on every server at once) are spread over until they leave the
 * minute, so the part is reached as they go, never in a stall waiting for them.
 */
export class FleetPace {
  private part: number | null = null;
  private lastSendAt = Number.NEGATIVE_INFINITY;

  /** `minute`: this server's own requests of the last minute. */
  constructor(private readonly minute: SlidingWindow) {}

  /** Follows what the others sent; not known, or no other server sending: no pacing of its own. */
  follow(perMinute: number, others: OthersUsage | null): void {
    const sending = others?.servers?.filter((requests) => requests > 0).length ?? 0;
    this.part = sending === 0 ? null : fairPart(perMinute, sending);
  }

  /** This server's part of the key's minute while others send on the key; null while none does. */
  get share(): number | null {
    return this.part;
  }

  msUntilAllowed(now: number): number {
    const { part } = this;
    if (part === null || this.lastSendAt === Number.NEGATIVE_INFINITY) return 0;
    const sent = this.minute.count(now);
    if (sent >= part) return this.minute.msUntilBelow(part, now);
    if (sent === 0) return 0;
    // The room left is spread until this server's oldest request of the minute leaves it.
    const room = part - sent;
    const leavesAt = now + this.minute.msUntilBelow(sent, now);
    const spacing = Math.max(MINUTE_MS / part, (leavesAt - this.lastSendAt) / (room + 1));
    return Math.max(0, Math.ceil(this.lastSendAt + spacing - now));
  }

  onSend(now: number): void {
    this.lastSendAt = now;
  }
}
