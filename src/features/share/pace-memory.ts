import { PACE_MINUTE_MS, PACE_WINDOW_MS, type ServerPace, type SharedPace } from './share-store';

interface PaceWindow {
  keyHash: string;
  server: string;
  requests: number;
}

/** `roster_share_pace` in memory: each server's requests per key in short windows, on the tables' clock. */
export class MemoryPaceTable {
  /** By key hash, window start and server. */
  private readonly windows = new Map<string, PaceWindow & { windowStart: number }>();

  /** Adds `requests` to `server`'s current window and answers every server's last minute of `keyHash`. */
  add(keyHash: string, server: string, requests: number, now: number): SharedPace {
    const windowStart = now - (now % PACE_WINDOW_MS);
    const added = Math.max(0, Math.round(requests));
    if (added > 0) {
      const key = `${keyHash}|${windowStart}|${server}`;
      const window = this.windows.get(key) ?? { keyHash, windowStart, server, requests: 0 };
      window.requests += added;
      this.windows.set(key, window);
    }
    const servers = new Map<string, ServerPace>();
    for (const [key, window] of this.windows) {
      // Windows long past are deleted, as the database store does now and then.
      if (window.windowStart < now - 2 * PACE_MINUTE_MS) this.windows.delete(key);
      else if (window.keyHash === keyHash && window.windowStart > now - PACE_MINUTE_MS) {
        const seen = servers.get(window.server) ?? { requests: 0, idleMs: Number.POSITIVE_INFINITY };
        seen.requests += window.requests;
        seen.idleMs = Math.min(seen.idleMs, now - window.windowStart);
        servers.set(window.server, seen);
      }
    }
    return servers;
  }
}
