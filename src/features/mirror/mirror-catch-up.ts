import type { AuditFeed, AuditPosition } from '../audit/audit-feed';
import type { StampSkewState } from '../audit/stamp-skew';

/** The part of the audit feed the mirror follows: its reads, its state and where it stands. */
export type FollowedFeed = Pick<AuditFeed, 'resumeFrom' | 'poll' | 'state' | 'unreadMembers' | 'position'>;

export type CatchUp = { done: true; reads: number } | { done: false; why: string };

/**
 * A restart with a recent snapshot: the audit log is read from the snapshot's position at once,
 * and on while a read stops at its size, until one reaches the end of the log with every member it
 * named read again. What the snapshot held, with those re-reads, is then the roster as it stands.
 * It cannot complete when the feed reports a gap (entries it could not read), the log cannot be
 * read, or a member it named cannot be read again. The feed's cursor bounds the reads: a backlog
 * too long to page through is a gap.
 */
export async function catchUp(feed: FollowedFeed, from: AuditPosition): Promise<CatchUp> {
  const gapsBefore = feed.state().gaps;
  feed.resumeFrom(from);
  for (let reads = 1; ; reads++) {
    await feed.poll();
    const state = feed.state();
    if (!state.running) return { done: false, why: 'the audit log cannot be read with this key' };
    if (state.gaps > gapsBefore)
      return { done: false, why: `a gap in the audit log (${state.lastGap?.reason ?? 'entries lost'})` };
    if (state.failing) return { done: false, why: 'the audit log could not be read' };
    if (state.behind) continue;
    const unread = feed.unreadMembers;
    if (unread > 0) return { done: false, why: `${unread} member(s) it named could not be read again` };
    return { done: true, reads };
  }
}

/**
 * Whether what the mirror holds is in step with the audit feed: every entry the feed handled
 * since `since` (this server's time: the restore of a recent snapshot, or the start of the last
 * full read that completed) reached it. Then the feed's position is where a catch-up after the
 * next restart starts; a gap the feed reported since, or a stale mirror, leaves none.
 */
export class AuditStep {
  private since: number | null = null;
  /** A restored snapshot's position, until the feed runs and resumes from it. */
  private pending: AuditPosition | null = null;
  private feed: FollowedFeed | null = null;

  get following(): boolean {
    return this.feed !== null;
  }

  /** A recent snapshot was restored at `at`: in step as of its position. */
  restored(position: AuditPosition, at: number): void {
    this.pending = position;
    this.since = at;
  }

  /** The feed runs, and is not resumed yet: a restored position keeps waiting (`follow` takes it). */
  watch(feed: FollowedFeed): void {
    this.feed = feed;
  }

  /** The feed runs; the position it should resume from, if a restored one waits. */
  follow(feed: FollowedFeed): AuditPosition | null {
    this.feed = feed;
    const pending = this.pending;
    this.pending = null;
    return pending;
  }

  /** A full read that began at `startedAt` completed. */
  readFrom(startedAt: number): void {
    this.since = startedAt;
  }

  /** What is held is stale: no position is in step with it until a full read completes. */
  lost(): void {
    this.since = null;
    this.pending = null;
  }

  /** Where a catch-up after the next restart starts; null when none could make the mirror current. */
  position(): AuditPosition | null {
    if (this.pending !== null) return this.pending;
    const state = this.feed?.state();
    if (this.since === null || !state?.running) return null;
    if (state.lastGap && state.lastGap.at >= this.since) return null;
    return this.feed?.position() ?? null;
  }

  /** Entries the feed saw stamped too far ahead of the service's time; null: none (or no feed). */
  skew(): StampSkewState | null {
    return this.feed?.state().skew ?? null;
  }

  /** When the feed last read the log to its end (this server's time). */
  caughtUpAt(): number | null {
    return this.feed?.state().caughtUpAt ?? null;
  }
}
