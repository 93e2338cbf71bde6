import { Handle } from '../../kernel/handle';
import type { MirrorReport } from './mirror-state';
import type { MirrorSync } from './mirror-sync';
import type { SavedMirror } from './saved-mirror';

/** What the other features ask the roster mirror: the snapshot, the daily budget, the panel. */
export interface MirrorHandle {
  /** The mirror as `roster status` and the panel tell it. */
  report(): MirrorReport;
  /** The mirror's part of the snapshot as it stands now; null for none. */
  toSave(): SavedMirror | null;
  /** On `onResourceStart`, before the key check: the mirror as the snapshot kept it. */
  restore(saved: SavedMirror): void;
}

/** Provided by the mirror feature when attached; null when it is not. */
export const mirrorHandle = new Handle<MirrorHandle>('the roster mirror');

/** What sharing the roster with the other servers on the key asks of the mirror. */
export type SharedMirror = Pick<
  MirrorSync,
  | 'followingShared'
  | 'onChange'
  | 'followShared'
  | 'applyShared'
  | 'sharedComplete'
  | 'lead'
  | 'auditPosition'
  | 'communityHeld'
  | 'report'
>;

/** Provided by the mirror feature when attached, for the sharing feature. */
export const sharedMirrorHandle = new Handle<SharedMirror>('the roster mirror to share');
