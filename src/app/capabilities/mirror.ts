import { hasScope } from '../../core/api';
import { mirrorDoctorLine, mirrorStatusLine } from '../../core/mirror/mirror-lines';
import { MirrorSync } from '../../core/mirror/mirror-sync';
import type { Capability } from '../capability';
import type { RosterContext } from '../roster-context';

/**
 * The whole roster kept on the server (CONTRACT.md section 14), so a member's join is decided
 * with no request. It needs the audit log to stay current: it starts once the key is verified
 * with `audit:read` (and `refresh.auditSeconds` above 0); otherwise, or with `mirror.enabled`
 * false, it stays off and every join is looked up as before. The audit feed's `auditGap` asks
 * for a full read again.
 */
export function attachMirror(context: RosterContext): Capability {
  const { config, api, service, schedule, clock, logger } = context;
  const sync = new MirrorSync({
    source: api,
    service,
    schedule,
    clock,
    logger,
    maxEntries: config.cache.maxEntries,
    passMs: config.refresh.auditSeconds * 1000,
    resyncMs: config.mirror.resyncMinutes * 60_000,
  });
  if (!config.mirror.enabled) sync.turnOff({ why: 'disabled' });
  return {
    ready(identity) {
      if (!config.mirror.enabled) return;
      if (config.refresh.auditSeconds === 0) sync.turnOff({ why: 'audit-off' });
      else if (!hasScope(identity.scopes, 'audit:read')) {
        sync.turnOff({ why: 'no-audit-read' });
        logger.info('the key lacks audit:read: the roster is not kept on the server; joins are looked up.');
      } else sync.begin();
    },
    auditGap: () => void sync.resync(),
    stop: () => sync.stop(),
    statusLines: () => [mirrorStatusLine(sync.report(), clock.now())],
    doctorLines: () => [mirrorDoctorLine(sync.report(), clock.now())],
  };
}
