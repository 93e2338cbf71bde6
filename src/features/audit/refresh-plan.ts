import type { Schedule } from '../../kernel/schedule';
import type { Clock } from '../../platform/ports';
import type { MemberResolver } from '../../roster/member-resolver';
import type { OnlinePlayers } from '../../roster/online-players';
import type { AuditFeed } from './audit-feed';

/** With the audit feed working, everyone online is re-read this many refresh intervals apart. */
export const SAFETY_NET_INTERVALS = 12;

export interface RefreshPlan {
  schedule: Schedule;
  clock: Clock;
  members: Pick<MemberResolver, 'mirrorAnswering'>;
  online: Pick<OnlinePlayers, 'refreshOnline'>;
  /** `refresh.intervalSeconds` in ms; 0 turns the periodic refresh off. */
  intervalMs: number;
  /** The audit feed, once it runs; null without `audit:read` or with `refresh.auditSeconds` 0. */
  feed: () => AuditFeed | null;
}

/**
 * The periodic refresh of every online player. While the audit feed reads changes on time it is
 * only a safety net, run every `SAFETY_NET_INTERVALS` intervals, and none at all while the roster
 * mirror answers (its own full reads are then the safety net, online players included); without
 * the feed, or while it fails, it runs every interval exactly as before.
 */
export function scheduleRefresh(plan: RefreshPlan): void {
  const { clock, members, online, intervalMs } = plan;
  let lastFull = clock.now();
  plan.schedule.every(
    intervalMs,
    async () => {
      const feed = plan.feed();
      // Half an interval of slack absorbs the schedule's jitter.
      const due = lastFull + intervalMs * (SAFETY_NET_INTERVALS - 0.5);
      if (feed?.healthy && (members.mirrorAnswering || clock.now() < due)) return;
      lastFull = clock.now();
      await online.refreshOnline('refresh');
    },
    0.1,
  );
}

/**
 * Anchors the feed on the audit log at once (a change made from now on is after the anchor, not
 * taken for history, however far off the first read is), then reads every `auditMs` (a little
 * jitter, never overlapping itself). Until that first read reaches the end of the log the feed is
 * not healthy, so the periodic refresh runs as usual meanwhile.
 */
export function scheduleAuditFeed(schedule: Schedule, feed: AuditFeed, auditMs: number): void {
  schedule.once(0, () => void feed.anchor());
  schedule.every(auditMs, () => feed.poll(), 0.05);
}
