import type { Logger } from '../../platform/ports';
import type { MirrorOff, MirrorState } from './mirror-state';

/**
 * The mirror's state, and the line a change of it logs. Read afresh each time: a read or a
 * callback may have turned the mirror off meanwhile.
 */
export class MirrorStatus {
  state: MirrorState = { kind: 'waiting' };

  constructor(private readonly logger: Logger) {}

  get off(): boolean {
    return this.state.kind === 'off';
  }

  get catchingUp(): boolean {
    return this.state.kind === 'catching-up';
  }

  /** Keeping a mirror: reading one, holding one or catching one up. */
  get active(): boolean {
    return this.state.kind !== 'off' && this.state.kind !== 'waiting';
  }

  /** Off until the resource restarts; false when it was already. */
  turnOff(off: MirrorOff): boolean {
    if (this.state.kind === 'off') return false;
    this.state = { kind: 'off', ...off };
    return true;
  }

  /** Says why the mirror went off where the owner can change it (a roster too large for it). */
  sayOff(off: MirrorOff): void {
    if (off.why !== 'too-large') return;
    this.logger.warn(
      `the roster holds more than cache.maxEntries (${off.maxEntries}) members (${off.size} found): the roster mirror is off and every join is looked up. Raise cache.maxEntries to keep the whole roster on the server.`,
    );
  }

  /** A full read completed: joins are decided from the mirror. True when they were not before. */
  fullRead(): boolean {
    const first = this.state.kind !== 'up';
    this.state = { kind: 'up' };
    return first;
  }

  /** A restored snapshot caught up in `reads` audit reads: joins are decided from it again. */
  caughtUp(reads: number, held: number): void {
    this.state = { kind: 'up' };
    this.logger.info(
      `the roster mirror caught up on the audit log since the snapshot in ${reads} read(s): its ${held} members' joins are decided without a request again.`,
    );
  }

  /** What is held serves the outage policy only, until a full read. */
  stale(why: string): void {
    this.state = { kind: 'stale', why };
    this.logger.warn(
      `the roster mirror's snapshot is stale (${why}): joins are looked up, and the roster is read again in full.`,
    );
  }
}
