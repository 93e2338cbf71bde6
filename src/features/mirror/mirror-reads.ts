import type { Schedule } from '../../kernel/schedule';
import type { Clock, Logger } from '../../platform/ports';
import { PacerStoppedError } from './mirror-pacer';
import type { ReadReplaced } from './named-window';
import type { RosterMirror } from './roster-mirror';
import { type RosterReadDeps, readNewMembers, readWholeRoster, type Stamp } from './roster-reads';

/** How often the members created since the newest one held are read (each audit pass at most). */
export const NEW_MEMBERS_EVERY_MS = 10 * 60_000;

export interface MirrorReadsDeps {
  reads: RosterReadDeps;
  mirror: RosterMirror;
  clock: Clock;
  logger: Logger;
  /** `refresh.auditSeconds`: when a failed read is tried again. */
  passMs: number;
  /** False once the mirror is off or the resource stops; asked again after every wait. */
  keeping(): boolean;
  /** The roster holds more members than the mirror may. */
  tooLarge(size: number): void;
  /**
   * A full read replaced what is held: it began at `startedAt` (this server's time) as the
   * `ordinal`-th full read; `replaced` says whether the audit log named more while it ran than it
   * could keep.
   */
  completed(startedAt: number, ordinal: number, replaced: ReadReplaced): void;
  /** Members a change named while a read brought them: read again (they are not answered until). */
  reread(licenses: readonly string[]): void;
}

/**
 * How the mirror reads the roster: a full read at a time (one asked while another runs follows
 * it), the members created since the newest one read, and one warning per run of failures.
 */
export class MirrorReads {
  /** The newest member `createdAt` read: members created after it are read next. */
  newest: Stamp | null = null;
  private newMembersReadAt = Number.NEGATIVE_INFINITY;
  /** Why the last read failed, while none has succeeded since. */
  failure: string | null = null;
  private reading: Promise<void> | null = null;
  /** Another full read follows the running one (a gap was reported while it ran). */
  private again = false;
  /** The last full read failed: the next pass tries it again. */
  private owed = false;
  /** Full reads begun so far. */
  begun = 0;
  /** The audit log named something the mirror does not hold: members are read at the next pass. */
  private newMembersWanted = false;

  constructor(private readonly deps: MirrorReadsDeps) {}

  get running(): boolean {
    return this.reading !== null;
  }

  /**
   * A pass every `passMs` (none while `paused()`), and a full read every `resyncMs`: the first one
   * that long after `lastFullReadAt` (a restored snapshot's included), at once when past it.
   */
  schedule(schedule: Schedule, resyncMs: number, lastFullReadAt: number | null, paused: () => boolean): void {
    const { clock, passMs } = this.deps;
    schedule.every(passMs, () => (paused() ? undefined : this.pass()));
    const periodic = () => (this.reading ? undefined : this.resync());
    const due = (lastFullReadAt ?? clock.now()) + resyncMs - clock.now();
    schedule.once(Math.max(0, Math.min(resyncMs, due)), () => {
      void periodic();
      schedule.every(resyncMs, periodic);
    });
  }

  /** Reads the whole roster again (now, or right after the read under way). Never rejects. */
  resync(): Promise<void> {
    if (!this.deps.keeping()) return Promise.resolve();
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.again = false;
    this.owed = false;
    this.reading = this.readWhole().finally(() => {
      this.reading = null;
      if (this.again) void this.resync();
    });
    return this.reading;
  }

  /**
   * The audit log named something the mirror holds nothing of (a member created since, who may
   * claim a license an older membership holds): the members created since the newest one read are
   * read at the next pass rather than up to 10 minutes later.
   */
  wantNewMembers(): void {
    this.newMembersWanted = true;
  }

  /** Each pass: the full read still owed, or the members created since the newest one read. */
  async pass(): Promise<void> {
    if (this.reading || !this.deps.keeping()) return;
    const { mirror, clock } = this.deps;
    if (!mirror.complete || this.owed) return this.resync();
    if (this.newest === null) return;
    // New members are few and a member not held is looked up at their join anyway, so they are
    // read at most every few minutes: a request each audit pass would cost as much as the feed.
    const due = clock.now() - this.newMembersReadAt >= NEW_MEMBERS_EVERY_MS - this.deps.passMs / 2;
    if (!due && !this.newMembersWanted) return;
    this.newMembersWanted = false;
    const readAt = clock.now();
    this.newMembersReadAt = readAt;
    const window = mirror.openWindow();
    try {
      const { members, newest } = await readNewMembers(this.deps.reads, this.newest);
      if (!this.deps.keeping() || !mirror.complete) return;
      const added = mirror.addAll(members, readAt, window);
      if (added.named.length > 0) this.deps.reread(added.named);
      if (newest && newest.at > this.newest.at) this.newest = newest;
      this.succeeded();
    } catch (error) {
      this.failed(error, 'read the members added since its last read');
    } finally {
      mirror.closeWindow(window);
    }
  }

  private async readWhole(): Promise<void> {
    const { mirror, clock } = this.deps;
    mirror.beginRead();
    const startedAt = clock.now();
    const ordinal = ++this.begun;
    try {
      const roster = await readWholeRoster(this.deps.reads);
      if (!this.deps.keeping()) return;
      if (roster.kind === 'too-large') return this.deps.tooLarge(roster.size);
      const replaced = mirror.replaceAll(roster.members, startedAt);
      // The full read held every member created until it began.
      this.newMembersReadAt = startedAt;
      // Answers heard during the read may have taken it past cache.maxEntries.
      if (!this.deps.keeping()) return;
      this.newest = roster.newest ?? this.newest;
      this.succeeded();
      if (replaced.named.length > 0) this.deps.reread(replaced.named);
      this.deps.completed(startedAt, ordinal, replaced);
    } catch (error) {
      mirror.abandonRead();
      this.owed = true;
      this.failed(error, 'read the roster');
    }
  }

  private succeeded(): void {
    if (this.failure !== null) this.deps.logger.info('the roster mirror can read the roster again.');
    this.failure = null;
  }

  /** One warning per run of failures; the next pass tries again. */
  private failed(error: unknown, what: string): void {
    if (error instanceof PacerStoppedError || !this.deps.keeping()) return;
    const message = error instanceof Error ? error.message : String(error);
    if (this.failure === null) {
      const meanwhile = this.deps.mirror.complete
        ? 'it keeps answering from what it holds'
        : 'joins are looked up as before';
      this.deps.logger.warn(
        `the roster mirror could not ${what} (${message}); ${meanwhile}, and it tries again in ${Math.round(this.deps.passMs / 1000)} s.`,
      );
    }
    this.failure = message;
  }
}
