import type { Clock, Logger } from '../ports';
import type { RosterService } from '../roster/roster-service';
import type { Schedule } from '../schedule';
import { MirrorPacer, PacerStoppedError } from './mirror-pacer';
import type { MirrorOff, MirrorReport, MirrorState } from './mirror-state';
import type { PageSource } from './paced-pages';
import { RosterMirror } from './roster-mirror';
import { type RosterReadDeps, readNewMembers, readWholeRoster, type Stamp } from './roster-reads';

export interface MirrorSyncDeps {
  /** The roster client: whole answers (paging included) and the key's minute as the limiter knows it. */
  source: PageSource & { limiterState(): { perMinute: number } };
  service: Pick<RosterService, 'useMirror' | 'onAnswer'>;
  schedule: Schedule;
  clock: Clock;
  logger: Logger;
  /** `cache.maxEntries`: a larger roster turns the mirror off. */
  maxEntries: number;
  /** `refresh.auditSeconds`: how often members created since the last read are read. */
  passMs: number;
  /** `mirror.resyncMinutes`: how often the whole roster is read again. */
  resyncMs: number;
}

/**
 * Keeps the whole roster on the server (CONTRACT.md section 14): a first full read in the
 * background, then the service's every answer (joins, refreshes, the audit feed's re-reads), the
 * members created since each pass, a full read again every `mirror.resyncMinutes` and whenever
 * `resync` is asked (the audit feed could not read some entries). Joins are answered from it only
 * once a full read completed; until then, and while it is off, they are looked up as before.
 */
export class MirrorSync {
  private readonly mirror: RosterMirror;
  private readonly pacer: MirrorPacer;
  private readonly reads: RosterReadDeps;
  private state: MirrorState = { kind: 'waiting' };
  private reading: Promise<void> | null = null;
  /** Another full read follows the running one (a gap was reported while it ran). */
  private again = false;
  /** The last full read failed: the next pass tries it again. */
  private owed = false;
  private newest: Stamp | null = null;
  private lastFullReadAt: number | null = null;
  private failure: string | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly deps: MirrorSyncDeps) {
    this.mirror = new RosterMirror(deps.maxEntries, (size) =>
      this.turnOff({ why: 'too-large', size, maxEntries: deps.maxEntries }),
    );
    this.pacer = new MirrorPacer(deps.clock, () => deps.source.limiterState().perMinute);
    this.reads = {
      source: deps.source,
      pacer: this.pacer,
      logger: deps.logger,
      mirror: this.mirror,
      maxEntries: deps.maxEntries,
    };
  }

  /** Starts the first read and the passes; once only, and never after the mirror was turned off. */
  begin(): void {
    if (this.state.kind !== 'waiting' || this.stopped) return;
    const { service, schedule, passMs, resyncMs } = this.deps;
    this.state = { kind: 'reading' };
    this.unsubscribe = service.onAnswer((license, answer) => this.mirror.heard(license, answer));
    service.useMirror(this.mirror);
    void this.resync();
    schedule.every(passMs, () => this.pass());
    schedule.every(resyncMs, () => (this.reading ? undefined : this.resync()));
  }

  /** Reads the whole roster again (now, or right after the read under way). Never rejects. */
  resync(): Promise<void> {
    if (this.state.kind !== 'reading' && this.state.kind !== 'up') return Promise.resolve();
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

  /** Turns the mirror off for good (until the resource restarts): joins are looked up as before. */
  turnOff(off: MirrorOff): void {
    if (this.state.kind === 'off') return;
    this.state = { kind: 'off', ...off };
    this.detach();
    if (off.why === 'too-large') {
      this.deps.logger.warn(
        `the roster holds more than cache.maxEntries (${off.maxEntries}) members (${off.size} found): the roster mirror is off and every join is looked up. Raise cache.maxEntries to keep the whole roster on the server.`,
      );
    }
  }

  /** The resource stops: reads under way end quietly. */
  stop(): void {
    this.stopped = true;
    this.detach();
  }

  report(): MirrorReport {
    return {
      state: this.state,
      held: this.state.kind === 'off' ? 0 : this.mirror.size,
      lastFullReadAt: this.lastFullReadAt,
      requestsToday: this.pacer.requestsToday,
      failure: this.failure,
    };
  }

  /** Each `refresh.auditSeconds`: the members created since, or the full read still owed. */
  private async pass(): Promise<void> {
    if (this.state.kind !== 'reading' && this.state.kind !== 'up') return;
    if (this.reading) return;
    if (!this.mirror.complete || this.owed) return this.resync();
    if (this.newest === null) return;
    try {
      const { members, newest } = await readNewMembers(this.reads, this.newest);
      if (this.state.kind !== 'up') return;
      this.mirror.addAll(members);
      if (newest && newest.at > this.newest.at) this.newest = newest;
      this.succeeded();
    } catch (error) {
      this.failed(error, 'read the members added since its last read');
    }
  }

  private async readWhole(): Promise<void> {
    this.mirror.beginRead();
    try {
      const roster = await readWholeRoster(this.reads);
      if (this.stopped || this.isOff()) return;
      if (roster.kind === 'too-large') {
        this.turnOff({ why: 'too-large', size: roster.size, maxEntries: this.deps.maxEntries });
        return;
      }
      const first = !this.mirror.complete;
      this.mirror.replaceAll(roster.members);
      // Answers heard during the read may have taken it past cache.maxEntries.
      if (this.isOff()) return;
      this.newest = roster.newest ?? this.newest;
      this.lastFullReadAt = this.deps.clock.now();
      this.state = { kind: 'up' };
      this.succeeded();
      if (first)
        this.deps.logger.info(
          `the roster mirror holds ${this.mirror.size} members: their joins are decided without a request.`,
        );
    } catch (error) {
      this.mirror.abandonRead();
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
    if (error instanceof PacerStoppedError || this.stopped || this.isOff()) return;
    const message = error instanceof Error ? error.message : String(error);
    if (this.failure === null) {
      const meanwhile = this.mirror.complete
        ? 'it keeps answering from what it holds'
        : 'joins are looked up as before';
      this.deps.logger.warn(
        `the roster mirror could not ${what} (${message}); ${meanwhile}, and it tries again in ${Math.round(this.deps.passMs / 1000)} s.`,
      );
    }
    this.failure = message;
  }

  /** Read afresh each time: a read or a callback may have turned the mirror off meanwhile. */
  private isOff(): boolean {
    return this.state.kind === 'off';
  }

  private detach(): void {
    this.pacer.stop();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.deps.service.useMirror(null);
    this.mirror.clear();
  }
}
