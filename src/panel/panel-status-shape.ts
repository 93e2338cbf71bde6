import type { JoinReason } from './join-reason';

/** What `status.json` answers and the page draws (shared by the server and the page). */
export interface PanelStatus {
  generatedAt: number;
  version: string;
  health: {
    keyVerified: boolean;
    community: string | null;
    scopes: string[];
    /** null until the service was asked anything. */
    serviceReachable: boolean | null;
    keySuspended: string | null;
    lastError: { message: string; at: number } | null;
  };
  rateLimit: {
    perMinute: number;
    perDay: number | null;
    remainingThisMinute: number;
    remainingToday: number | null;
    pausedUntil: number | null;
    queued: Record<'join' | 'refresh' | 'background', number>;
    requestsTotal: number;
    throttledTotal: number;
    unansweredTotal: number;
    perMinuteSeries: { at: number; requests: number; throttled: number }[];
  };
  joins: {
    recent: {
      at: number;
      player: string;
      license: string | null;
      admitted: boolean;
      reason: JoinReason;
      note: string;
      ms: number;
    }[];
    /** Counts of the recent decisions' times, by upper bound in seconds (last: above every bound). */
    histogram: { bounds: number[]; counts: number[] };
    byReason: { outcome: 'admitted' | 'refused'; reason: JoinReason; count: number }[];
  };
  players: {
    onlineCount: number;
    connectingCount: number;
    online: {
      id: string;
      name: string;
      license: string | null;
      member: string | null;
      status: string | null;
      loaded: boolean;
      departments: { name: string; rank: string | null; callsign: string | null; primary: boolean }[];
    }[];
  };
  cache: { entries: number; hits: number; misses: number; hitRate: number };
  training: { on: boolean; lines: string[] };
  doctor: { running: boolean; last: { at: number; ms: number; lines: string[] } | null };
}
