import type { LimiterState } from '../../http';
import type { LicenseClaim } from '../../roster/claimed-licenses';
import type { PlayerEntry } from '../../roster/player-registry';
import type { MirrorReport } from '../mirror/mirror-state';
import type { ShareReport } from '../share/share-report';

/**
 * Where the panel reads the resource's state, only when a page, `status.json` or `/metrics` is
 * asked for: nothing here runs on the join or export paths.
 */
export interface PanelSources {
  version: string;
  identity(): { community: string; scopes: readonly string[] } | null;
  limiter(): LimiterState & { suspended: string | null };
  lastError(): { message: string; at: number } | null;
  cache(): { size: number; hits: number; misses: number; hitRate: number };
  onlinePlayers(): Iterable<[string, PlayerEntry]>;
  onlineCount(): number;
  connectingCount(): number;
  /** `roster training` lines, or null when the training side is off. */
  training(): Promise<string[]> | null;
  /** The roster mirror, or null when none is kept. */
  mirror(): MirrorReport | null;
  /** The shared roster, or null when `share.enabled` is false. */
  sharing?(): ShareReport | null;
  /** Licenses seen claimed by several members, and whether more were seen than are kept. */
  claimedLicenses?(): { licenses: readonly LicenseClaim[]; more: boolean };
  /** The job and grade job sync gives a player's character; absent or null without job sync. */
  jobOf?(src: string): { job: string; grade: number } | null;
  /** `roster doctor`: the checks, as lines. */
  doctor(): Promise<string[]>;
  /** An online player's hours on duty in the last 7 days; null when unknown (no duty hours read). */
  dutyHours?(src: string): number | null;
}
