import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { sharedReadsHandle } from '../../kernel/shared-reads';
import { hasScope } from '../../roster/client';
import { auditFeedHandle } from '../audit/handle';
import { mirrorHandle, sharedMirrorHandle } from './handle';
import { mirrorDoctorLine, mirrorStatusLine } from './mirror-lines';
import { MirrorSync } from './mirror-sync';
import { communityKey } from './saved-mirror';

/**
 * The whole roster kept on the server, so a member's join is decided
 * with no request. It needs the audit log to stay current: it starts once the key is verified
 * with `audit:read` (and `refresh.auditSeconds` above 0); otherwise, or with `mirror.enabled`
 * false, it stays off and every join is looked up as before. The audit feed's `auditGap` asks
 * for a full read again. After a restart it starts from the snapshot: caught up on the audit log
 * from the position saved with it when recent, else held for the outage policy only.
 */
export function attachMirror(context: RosterContext): Feature {
  const { config, api, catalog, members, online, schedule, clock, logger } = context;
  const sync = new MirrorSync({
    source: api,
    members,
    online,
    schedule,
    clock,
    logger,
    maxEntries: config.cache.maxEntries,
    licenseClaims: context.claimedLicenses,
    onlineLicenses: function* () {
      for (const [, entry] of context.players.onlinePlayers())
        if (entry.license !== null) yield entry.license;
    },
    passMs: config.refresh.auditSeconds * 1000,
    resyncMs: config.mirror.resyncMinutes * 60_000,
  });
  if (!config.mirror.enabled) sync.turnOff({ why: 'disabled' });
  context.handles.provide(mirrorHandle, {
    report: () => sync.report(),
    toSave: () => sync.toSave(catalog.ready ? catalog.index.catalog : null),
    restore(saved) {
      const fresh = sync.restore(saved);
      const { state, held } = sync.report();
      if (fresh)
        logger.info(
          `loaded the roster mirror from the snapshot (${held} members): joins are looked up until the audit log since it is read.`,
        );
      else if (state.kind === 'stale')
        logger.info(
          `the roster mirror in the snapshot is stale (${state.why}): its ${held} members serve the outage policy only until the roster is read again.`,
        );
    },
  });
  context.handles.provide(sharedMirrorHandle, sync);
  context.handles.provide(sharedReadsHandle, { followingShared: () => sync.followingShared });
  return {
    auditFeedStarted() {
      const feed = context.handles.get(auditFeedHandle);
      if (feed) sync.follow(feed);
    },
    ready(identity) {
      sync.verified(communityKey(identity.community));
      if (!config.mirror.enabled) return;
      if (config.refresh.auditSeconds === 0) sync.turnOff({ why: 'audit-off' });
      else if (!hasScope(identity.scopes, 'audit:read')) {
        sync.turnOff({ why: 'no-audit-read' });
        logger.info('the key lacks audit:read: the roster is not kept on the server; joins are looked up.');
      } else sync.begin();
    },
    scopesChanged(identity) {
      if (!config.mirror.enabled || config.refresh.auditSeconds === 0) return;
      if (!hasScope(identity.scopes, 'audit:read')) return;
      logger.info('the key has audit:read now: reading the whole roster to keep it on the server.');
      sync.auditReadGranted();
    },
    auditGap: (reason) => sync.gap(reason),
    auditEntries: (fresh) => sync.entriesRead(fresh),
    stop: () => sync.stop(),
    statusLines: () => [mirrorStatusLine(sync.report(), clock.now())],
    doctorLines: () => [mirrorDoctorLine(sync.report(), clock.now())],
  };
}
