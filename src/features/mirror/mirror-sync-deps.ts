import type { LimiterState } from '../../http';
import type { Schedule } from '../../kernel/schedule';
import type { Clock, Logger } from '../../platform/ports';
import type { LicenseClaims } from '../../roster/claimed-licenses';
import type { MemberResolver } from '../../roster/member-resolver';
import type { OnlinePlayers } from '../../roster/online-players';
import type { PageSource } from './paced-pages';

/** What the mirror is kept with: the roster client, the players it serves, and its settings. */
export interface MirrorSyncDeps {
  /** The roster client: whole answers (paging included) and the key's minute as the limiter knows it. */
  source: PageSource & {
    limiterState(): Pick<
      LimiterState,
      'perMinute' | 'remainingThisMinute' | 'resetAt' | 'keyUsedLastMinute'
    > & { joinsWaiting: number };
  };
  members: Pick<MemberResolver, 'useMirror' | 'onAnswer'>;
  online: Pick<OnlinePlayers, 'followMirror' | 'refreshMembers'>;
  schedule: Schedule;
  clock: Clock;
  logger: Logger;
  /** `cache.maxEntries`: a larger roster turns the mirror off. */
  maxEntries: number;
  /** `refresh.auditSeconds`: how often members created since the last read are read. */
  passMs: number;
  /** `mirror.resyncMinutes`: how often the whole roster is read again. */
  resyncMs: number;
  /** Told of each license several members claim, the deciding (most recent) membership first. */
  licenseClaims?: LicenseClaims;
  /** The licenses of the players online: the ones a shared change must reach at once. */
  onlineLicenses?: () => Iterable<string>;
}
