import type { OtherServer, OthersUsage } from './fleet-usage';
import type { SlidingWindow } from './sliding-window';

const MINUTE_MS = 60_000;

/**
 * This server's part of the key's minute: the servers sending now, this one counted among them,
 * split evenly what the others that stopped sending left of it (their requests still in the
 * minute are theirs until they leave it). One request per server is left aside for the counts'
 * lag: each server's sends reach the others about a second late.
 */
export function fairPart(perMinute: number, others: readonly OtherServer[]): number {
  let kept = others.length + 1;
  let sending = 1;
  for (const other of others) {
    if (other.recent) sending += 1;
    else kept += other.minute;
  }
  return Math.max(1, Math.floor((perMinute - kept) / sending));
}

/**
 * Keeps this server to its part of the key's minute while other servers send on the key, its
 * requests spread evenly: when the fleet wants more than the key allows, each server's requests
 * are paced a part's spacing apart instead of the fleet spending the minute together and then
 * stalling together. Over any minute this server sends at most its part. Requests sent closer
 * together before the part shrank (a storm beginning on every server at once) stretch the spacing
 * until they leave the minute, so the part is reached as they go, not in a stall waiting for them.
 */
export class FleetPace {
  private part: number | null = null;
  private lastSendAt = Number.NEGATIVE_INFINITY;

  /** `minute`: this server's own requests of the last minute. */
  constructor(private readonly minute: SlidingWindow) {}

  /**
   * Follows what the others sent. Not known, or no other server sending now: no pacing of its own
   * (the key's minute is still kept for all of them together).
   */
  follow(perMinute: number, others: OthersUsage | null): void {
    const servers = others?.servers ?? [];
    this.part = servers.some((other) => other.recent) ? fairPart(perMinute, servers) : null;
  }

  msUntilAllowed(now: number): number {
    const { part } = this;
    if (part === null || this.lastSendAt === Number.NEGATIVE_INFINITY) return 0;
    const sent = this.minute.count(now);
    if (sent >= part) return this.minute.msUntilBelow(part, now);
    const spacing = Math.max(MINUTE_MS / part, this.minute.spacingBelow(part, this.lastSendAt, now));
    return Math.max(0, Math.ceil(this.lastSendAt + spacing - now));
  }

  onSend(now: number): void {
    this.lastSendAt = now;
  }
}
