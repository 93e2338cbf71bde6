/** The longest window hours are kept for: `getDutyHours(src, days)` answers up to 30 days. */
export const KEPT_DAYS = 30;
const DAY_MS = 86_400_000;
/**
 * Sessions kept per member: about twenty a day for the whole window, far beyond a real member's.
 * A service that answers with ever new ones cannot grow the ledger past it: the oldest go first.
 */
export const MAX_SESSIONS_PER_MEMBER = 600;

/** One duty session as kept: when it began and ended (null while on duty), and when it was stored. */
export interface DutySession {
  start: number;
  end: number | null;
  /** The service's `createdAt`: a session may be stored long after it began. */
  stored: number;
}

/**
 * Duty sessions of the members online, by member id and session id, for the last 30 days.
 * Bounded: sessions older than the window go at each `prune`, a member keeps at most
 * `MAX_SESSIONS_PER_MEMBER`, and a member's sessions go when the member is forgotten (no longer
 * online).
 */
export class DutyLedger {
  private readonly byMember = new Map<string, Map<string, DutySession>>();
  /** Members whose sessions were read at least once: their hours are known. */
  private readonly known = new Set<string>();

  /** Keeps a session read for `member` (a session already held is replaced: it may have ended). */
  add(member: string, id: string, session: DutySession): void {
    const held = this.byMember.get(member) ?? new Map<string, DutySession>();
    this.byMember.set(member, held);
    held.set(id, session);
    if (held.size > MAX_SESSIONS_PER_MEMBER) {
      let oldest: [string, number] | null = null;
      for (const [key, { start }] of held) if (oldest === null || start < oldest[1]) oldest = [key, start];
      if (oldest) held.delete(oldest[0]);
    }
  }

  /** Every session of `member` in the window has been read: their hours are known from now on. */
  markKnown(member: string): void {
    this.known.add(member);
  }

  /**
   * Hours on duty in the `days` before `now` (an open session counts up to now); null when unknown.
   * Time covered by several sessions counts once (a shift recorded twice, a clock-in while still
   * clocked in), and a session that starts after now counts nothing.
   */
  hours(member: string, days: number, now: number): number | null {
    if (!this.known.has(member) || days > KEPT_DAYS) return null;
    const from = now - days * DAY_MS;
    const spans: [number, number][] = [];
    for (const { start, end } of this.byMember.get(member)?.values() ?? []) {
      const span: [number, number] = [Math.max(start, from), Math.min(end ?? now, now)];
      if (span[1] > span[0]) spans.push(span);
    }
    spans.sort((a, b) => a[0] - b[0]);
    let ms = 0;
    let reached = Number.NEGATIVE_INFINITY;
    for (const [start, end] of spans) {
      if (end <= reached) continue;
      ms += end - Math.max(start, reached);
      reached = end;
    }
    return Math.round((ms / 3_600_000) * 100) / 100;
  }

  /** When the earliest stored of `member`'s sessions still on duty was stored, if any. */
  openStoredSince(member: string): number | null {
    let earliest: number | null = null;
    for (const { stored, end } of this.byMember.get(member)?.values() ?? [])
      if (end === null && (earliest === null || stored < earliest)) earliest = stored;
    return earliest;
  }

  /** Ids of `member`'s sessions that began after `time`. */
  startedAfter(member: string, time: number): Set<string> {
    const ids = new Set<string>();
    for (const [id, { start }] of this.byMember.get(member) ?? []) if (start > time) ids.add(id);
    return ids;
  }

  /** A session the service no longer lists (deleted, or moved out of the window). */
  remove(member: string, id: string): void {
    this.byMember.get(member)?.delete(id);
  }

  /** Which member holds each session, by session id. */
  owners(): Map<string, string> {
    const owners = new Map<string, string>();
    for (const [member, sessions] of this.byMember) for (const id of sessions.keys()) owners.set(id, member);
    return owners;
  }

  isKnown(member: string): boolean {
    return this.known.has(member);
  }

  forget(member: string): void {
    this.known.delete(member);
    this.byMember.delete(member);
  }

  /** Drops sessions that ended before the window. */
  prune(now: number): void {
    const from = now - KEPT_DAYS * DAY_MS;
    for (const sessions of this.byMember.values())
      for (const [id, { start, end }] of sessions) if ((end ?? start) < from) sessions.delete(id);
  }

  get members(): number {
    return this.known.size;
  }
}
