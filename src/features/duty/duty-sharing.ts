import { errorMessage } from '../../platform/error-message';
import type { Logger } from '../../platform/ports';
import type { SharedDutyCursor, SharedDutyHandle } from '../share/shared-duty';
import type { CommunitySource, DutyReader, DutyRefresh } from './duty-reader';

/** Rows read from the database in one page, and pages at most per refresh. */
const PAGE_ROWS = 500;
const MOST_PAGES = 20;
/** Beyond two refreshes and this, a shared read that has not moved is taken as stopped. */
const STALE_SLACK_MS = 10_000;

/**
 * Duty sessions shared with the other servers on the key (`share.enabled`): the server that reads
 * the roster for them also reads what the community stored since, once, and writes it to the
 * database; the others take it from there instead of asking the service, and read only their own
 * members' full reads and sessions on duty. A shared read that stopped (no reader, or one with no
 * player online to spend requests for) or a database that fails: this server reads for itself.
 */
export class DutySharing {
  /** Where this server stands in the shared rows; null while it does not follow them. */
  private cursor: SharedDutyCursor | null = null;
  /** The shared rows are whole for this server from here (it skipped what was written before it followed). */
  private followedFrom = Number.POSITIVE_INFINITY;
  private failedSaid = false;
  /** How the last refresh had what the community stored, for `roster doctor`; null: alone. */
  standing: 'reads for the others' | 'follows' | null = null;

  constructor(
    private readonly shared: () => SharedDutyHandle | null,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  /** Before a refresh: the shared rows applied, and where what the community stored comes from. */
  async before(reader: DutyReader): Promise<CommunitySource> {
    const shared = this.shared();
    const role = shared?.role() ?? null;
    if (shared === null || role === null) return this.alone();
    try {
      const state = await shared.store.state();
      if (role === 'reader') {
        this.cursor = null;
        this.standing = 'reads for the others';
        return { own: true, carryOn: state.after };
      }
      if (this.cursor === null) {
        // Rows written before are skipped: members read before this point read their gap themselves.
        this.cursor = { version: state.version, id: '' };
        this.followedFrom =
          state.version === 0 ? Number.NEGATIVE_INFINITY : (state.after ?? Number.POSITIVE_INFINITY);
      }
      const coveredFrom = Math.max(state.from ?? Number.POSITIVE_INFINITY, this.followedFrom);
      let done = false;
      for (let page = 0; page < MOST_PAGES && !done; page++) {
        const read = await shared.store.sessionsSince(this.cursor, PAGE_ROWS);
        reader.applyShared(read.sessions, coveredFrom, null);
        this.cursor = read.next;
        done = read.done;
        if (read.unreadable > 0)
          this.sayOnce(`${read.unreadable} shared duty session row(s) could not be read and were ignored`);
      }
      // Every row up to the state read is applied: what the community stored is known up to it.
      if (done) reader.applyShared([], coveredFrom, state.after);
      this.failedSaid = false;
      const fresh = state.after !== null && state.now - state.fedAt <= 2 * this.intervalMs + STALE_SLACK_MS;
      this.standing = fresh ? 'follows' : null;
      return fresh ? { own: false, coveredFrom } : { own: true };
    } catch (error) {
      this.sayOnce(`the shared duty sessions could not be read (${errorMessage(error)})`);
      return this.alone();
    }
  }

  /** After a refresh: the reader writes what its read of the community listed. */
  async after(done: DutyRefresh): Promise<void> {
    const shared = this.shared();
    const read = done.community;
    if (shared === null || read === null || shared.role() !== 'reader') return;
    try {
      await shared.store.publish(read);
    } catch (error) {
      this.sayOnce(
        `the duty sessions read could not be written for the other servers (${errorMessage(error)})`,
      );
    }
  }

  private alone(): CommunitySource {
    this.cursor = null;
    this.standing = null;
    return { own: true };
  }

  private sayOnce(what: string): void {
    if (this.failedSaid) return;
    this.failedSaid = true;
    this.logger.warn(`${what}: this server reads what the community stored itself meanwhile.`);
  }
}
