import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { sharedReadsHandle } from '../../kernel/shared-reads';
import { hasScope } from '../../roster/client';
import type { KeyIdentity } from '../../roster/model';
import type { AuditFeed } from './audit-feed';
import { startAuditFeed } from './audit-start';
import { feedLines } from './feed-report';
import { gapReread } from './gap-reread';
import { auditFeedHandle } from './handle';
import { scheduleRefresh } from './refresh-plan';

const CATALOG_REFRESH_MS = 30 * 60_000;

/**
 * Keeps what the server knows current: online players and the members the cache holds through the
 * audit log (when the key may read it), with the periodic refresh as a safety net; everyone online
 * again the moment a refused key works again; departments and ranks every 30 minutes. `roster
 * doctor` tells how the feed runs.
 */
export function attachAudit(context: RosterContext): Feature {
  const {
    api,
    catalog,
    members,
    online,
    players,
    cache,
    schedule,
    clock,
    logger,
    config,
    features,
    handles,
  } = context;
  // While the key was refused nothing was sent: players admitted meanwhile by gate.onError have no
  // roster data, and everyone online may have changed. Read them all again the moment it resumes,
  // not at the next background refresh.
  api.onStateChange((change) => {
    if (change.state === 'resumed') online.refreshOnline('refresh').catch(() => {});
  });
  let feed: AuditFeed | null = null;
  // While another server reads the roster and this one follows it through the database, the audit
  // log is not read here, nor everyone online re-read while the copy answers: the reader does both.
  const following = () => handles.get(sharedReadsHandle)?.followingShared() ?? false;
  const feedSchedule = schedule.heldWhile(following);
  const refreshSchedule = schedule.heldWhile(() => following() && members.mirrorAnswering);
  // A gap re-reads everyone online and makes the cache's records last known only (spaced out);
  // whatever else a gap stops (the roster mirror deciding) hears of it at once.
  const reread = gapReread({ online, cache, schedule, clock });
  const gap = (reason: string): void => {
    features.auditGap(reason);
    reread();
  };
  const startFeed = (identity: KeyIdentity): void => {
    if (feed !== null) return;
    feed = startAuditFeed(
      {
        api,
        catalog,
        members,
        online,
        players,
        cache,
        schedule: feedSchedule,
        clock,
        logger,
        auditSeconds: config.refresh.auditSeconds,
        gap,
        entriesRead: (fresh) => features.auditEntries(fresh),
      },
      identity.scopes,
    );
    // At once, so a mirror restored from the snapshot resumes the log before it is anchored.
    if (feed) {
      handles.provide(auditFeedHandle, feed);
      features.auditFeedStarted();
    }
  };
  return {
    ready: (identity) => startFeed(identity),
    // Granted later (the key is checked again while it lacks it): the feed starts then.
    scopesChanged: (identity) => {
      if (hasScope(identity.scopes, 'audit:read')) startFeed(identity);
    },
    doctorLines: () => (feed ? feedLines(feed.state(), clock.now(), config.refresh.intervalSeconds) : []),
    start() {
      scheduleRefresh({
        schedule: refreshSchedule,
        clock,
        members,
        online,
        intervalMs: config.refresh.intervalSeconds * 1000,
        feed: () => feed,
      });
      schedule.every(
        CATALOG_REFRESH_MS,
        async () => {
          await catalog.refresh();
          features.departmentsRead(catalog.index);
        },
        0.1,
      );
    },
  };
}
