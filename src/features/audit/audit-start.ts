import type { Schedule } from '../../kernel/schedule';
import type { Clock, Logger } from '../../platform/ports';
import type { RosterCatalog } from '../../roster/catalog';
import { hasScope, ROSTER_ROUTES, type RosterApi } from '../../roster/client';
import type { MemberCache } from '../../roster/member-cache';
import type { MemberResolver } from '../../roster/member-resolver';
import type { OnlinePlayers } from '../../roster/online-players';
import type { PlayerRegistry } from '../../roster/player-registry';
import { AuditFeed } from './audit-feed';
import { gapReread } from './gap-reread';
import { scheduleAuditFeed } from './refresh-plan';

/** Pages of the audit log read at most per pass; the next pass goes on from the last entry read. */
const AUDIT_MAX_PAGES = 20;
/** The API's largest page, which the client asks for. */
const PAGE_SIZE = 100;

export interface AuditStart {
  api: RosterApi;
  catalog: RosterCatalog;
  members: MemberResolver;
  online: OnlinePlayers;
  players: PlayerRegistry;
  cache: MemberCache;
  schedule: Schedule;
  clock: Clock;
  logger: Logger;
  /** `refresh.auditSeconds` (0: off). */
  auditSeconds: number;
  /**
   * What a gap in the feed (entries it could not read) costs; by default everyone online is read
   * again and the cache's records are read again at each member's next join (`gapReread`).
   */
  gap?: (reason: string) => void;
  /** With the default gap answer, what else is read again (the roster mirror's full read). */
  alsoReread?: () => void;
  /** Told the entries each read brings that were not handled before (`AuditFeedDeps.entriesRead`). */
  entriesRead?: (fresh: readonly unknown[]) => void;
}

/** Starts reading the audit log when the key may (`audit:read`) and the owner wants it; else null. */
export function startAuditFeed(deps: AuditStart, scopes: readonly string[]): AuditFeed | null {
  const auditMs = deps.auditSeconds * 1000;
  if (auditMs === 0) return null;
  if (!hasScope(scopes, 'audit:read')) {
    deps.logger.info(
      'the key lacks audit:read: online players are kept current by the periodic refresh alone.',
    );
    return null;
  }
  const feed = new AuditFeed({
    list: (query) => deps.api.list(ROSTER_ROUTES.auditLogs, query, 'refresh', AUDIT_MAX_PAGES),
    passSize: AUDIT_MAX_PAGES * PAGE_SIZE,
    newest: () => deps.api.get(ROSTER_ROUTES.auditLogs, { sort: '-createdAt', limit: 2 }, 'refresh'),
    // Stamps are judged on the service's clock: this server's may be minutes off it.
    serviceTime: () => deps.api.serviceTime.now(),
    catalog: deps.catalog,
    online: deps.online,
    players: deps.players,
    // Members not online are found by id in the cache and, when it runs, the roster mirror.
    cache: deps.members,
    clock: deps.clock,
    logger: deps.logger,
    intervalMs: auditMs,
    gap: deps.gap ?? gapReread(deps),
    ...(deps.entriesRead ? { entriesRead: deps.entriesRead } : {}),
  });
  scheduleAuditFeed(deps.schedule, feed, auditMs);
  return feed;
}
