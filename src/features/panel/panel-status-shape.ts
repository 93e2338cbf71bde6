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
      /** Hours on duty in the last 7 days; null when unknown. */
      hours7: number | null;
      /** The framework job and grade the roster gives the character (job sync); null when none. */
      job: { job: string; grade: number } | null;
    }[];
  };
  cache: { entries: number; hits: number; misses: number; hitRate: number };
  /** The roster kept on the server; null when none is kept. */
  mirror: {
    state: 'waiting' | 'reading' | 'catching-up' | 'stale' | 'up' | 'off';
    /** The state in a few words, with why it is stale or off. */
    summary: string;
    held: number;
    /** This server's time when the last full read completed (a restored snapshot's included). */
    lastFullReadAt: number | null;
    /** When the audit feed last read the log to its end. */
    lastAuditCatchUpAt: number | null;
    /** This run began from a snapshot caught up on the audit log: when, in how many reads. */
    caughtUpFromSnapshot: { at: number; reads: number } | null;
    /** Requests the mirror's own reads spent today (UTC). */
    requestsToday: number;
    /** Why its last read failed, while none has succeeded since. */
    lastReadFailure: string | null;
    /** Members' joins are decided from it now (false while a gap is open or the audit log lags). */
    deciding: boolean;
    /** Gaps in the audit log this run. */
    gaps: number;
    /** The last gap: when, why, and when the full read begun after it ended it (null: not yet). */
    lastGap: { at: number; reason: string; rereadAt: number | null } | null;
    /** Audit entries stamped too far ahead of the service's clock: how many, the last one, how far, when read. */
    clockSkew: { entries: number; last: { entry: string; aheadMs: number; at: number } } | null;
  } | null;
  /** The roster shared with the other servers on the key through the database; null when `share.enabled` is false. */
  sharing: {
    on: boolean;
    role: 'starting' | 'reader' | 'follower' | 'alone';
    /** Sharing in a few words, with why it is off. */
    summary: string;
    server: string;
    reader: string | null;
    /** How long the reader's lease still runs; null when none runs. */
    leaseLeftMs: number | null;
    /** The shared roster's version, and how many versions this server's copy is behind it. */
    version: number | null;
    lag: number | null;
    /** When this server last read the database (its time). */
    syncedAt: number | null;
    complete: boolean;
    /** The key's requests, every server's: this minute, today. */
    budget: { minute: number; day: number } | null;
  } | null;
  /** Licenses the roster lists for several members; the most recent membership decides for each. */
  claimedLicenses: {
    licenses: {
      /** In part, as elsewhere on the page. */
      license: string | null;
      /** The deciding member first; at most a few. */
      memberIds: string[];
      /** How many members claimed it when last seen. */
      members: number;
      deciding: string;
    }[];
    /** More licenses were seen than are listed. */
    more: boolean;
  };
  training: { on: boolean; lines: string[] };
  doctor: { running: boolean; last: { at: number; ms: number; lines: string[] } | null };
}
