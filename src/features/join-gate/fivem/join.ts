import type { Config } from '../../../kernel/config';
import type { JoinCheck } from '../../../kernel/join-check';
import type { JoinDecisionListener } from '../../../kernel/join-decision';
import { errorMessage } from '../../../platform/error-message';
import { licenseOf } from '../../../platform/identifiers';
import { type Deferrals, fx } from '../../../platform/natives';
import type { Clock, Logger } from '../../../platform/ports';
import type { MemberResolver } from '../../../roster/member-resolver';
import type { PlayerEntry, PlayerRegistry } from '../../../roster/player-registry';
import type { RosterSource } from '../../../roster/roster-source';
import { admissionFor } from '../admission';
import { checkMarginMs, watchdogAfterMs } from '../deadline';
import { formatMessage } from '../messages';

export interface GateDeps {
  /** Further checks, in order, after the roster admits; read at each join. */
  joinChecks?: () => readonly JoinCheck[];
  config: Config;
  /** `null` while the resource is not set up: every player is refused with the not-configured message. */
  members: () => MemberResolver | null;
  source: () => RosterSource | null;
  players: PlayerRegistry;
  community: () => string;
  clock: Clock;
  logger: Logger;
  /** Told of every decision (the owner's panel); called synchronously, so it must be cheap. */
  onDecision?: JoinDecisionListener;
  /** Called just before an admitted player's `done()` (e.g. to grant their principals first). */
  admitted?(tempId: string): void;
}

/** One connecting player's way through the gate, always ending in exactly one `done`. */
export class Join {
  private finished = false;
  private readonly timers: unknown[] = [];
  private readonly values: Record<string, string>;
  private license: string | null = null;
  private entry: PlayerEntry | undefined;
  /** 'roster' until the roster admits, then 'checks' while further checks run. */
  private stage: 'roster' | 'checks' = 'roster';
  /** The watchdog has already given a further check its one frame. */
  private checkGraced = false;
  private readonly startedAt: number;
  onFinish: () => void = () => {};

  constructor(
    private readonly deps: GateDeps,
    private readonly tempId: string,
    private readonly name: string,
    private readonly deferrals: Deferrals,
  ) {
    this.values = { player: name, community: deps.community() };
    this.startedAt = deps.clock.now();
  }

  async run(): Promise<void> {
    const { deps, values, tempId, name } = this;
    const { config, clock } = deps;
    const { gate } = config;
    const messages = gate.messages;
    if (this.finished) return;
    const members = deps.members();
    if (members === null) {
      this.finish(formatMessage(messages.notConfigured, values), 'roster check not set up');
      return;
    }
    this.deferrals.update(formatMessage(messages.checking, values));

    const license = licenseOf(tempId);
    this.license = license;
    const entry: PlayerEntry = { license, name, view: undefined, since: clock.now() };
    this.entry = entry;
    deps.players.connect(tempId, entry);

    if (gate.bypassAce !== '' && fx.IsPlayerAceAllowed(tempId, gate.bypassAce)) {
      this.admit(`bypass ACE ${gate.bypassAce}`);
      return;
    }
    if (license === null) {
      this.finish(formatMessage(messages.noLicense, values), 'no license identifier');
      return;
    }

    const timeoutMs = gate.timeoutSeconds * 1000;
    const deadlineMs = watchdogAfterMs(timeoutMs);
    // Further checks answer a little before the watchdog, so their own outage rules can decide.
    const deadlineAt = clock.now() + deadlineMs - checkMarginMs(deadlineMs);
    // The watchdog ends the deferral even if the lookup or a further check never settles.
    this.timers.push(
      fx.setTimeout(() => this.watchdog(`no answer within ${gate.timeoutSeconds}s`), deadlineMs),
    );
    announceWait(deps, this.deferrals, values, () => this.finished, this.timers);

    // The member's full record (status, departments, ranks), or the status alone when it refuses.
    let resolution = await members.resolve(license, 'join', { decideOnly: true });
    if (resolution.kind === 'answer' && resolution.unnamed && gate.departments.length > 0) {
      // Departments known by id only cannot be matched by name: the service could not fully answer.
      resolution = {
        kind: 'outage',
        error: new Error('departments not loaded'),
        lastKnown: members.lastKnown(license),
      };
    }
    if (this.finished) return;
    if (resolution.kind === 'outage') entry.view = resolution.lastKnown;
    else if (!resolution.partial) entry.view = resolution.view;
    const admission = admissionFor(resolution, gate, messages, values);
    const basis = resolution.kind === 'answer' ? 'roster' : `service unavailable, ${admission.basis}`;
    if (!admission.allow) {
      this.finish(admission.message, basis);
      return;
    }
    this.stage = 'checks';
    for (const check of deps.joinChecks?.() ?? []) {
      const refusal = await check({ tempId, name, deadlineAt }).catch((error: unknown) => {
        deps.logger.warn(`a join check failed: ${errorMessage(error)}`);
        return gate.onError === 'allow' ? undefined : formatMessage(messages.unavailable, values);
      });
      if (this.finished) return;
      if (refusal !== undefined) {
        this.finish(refusal, `${basis}; a further check refused`);
        return;
      }
    }
    this.admit(basis);
  }

  /**
   * The watchdog fired. A further check's own deadline comes before it (`checkMarginMs`), but a
   * server that stalled past both runs the two timers in one frame, the watchdog first: the check's
   * outage rule (e.g. `cached` completions) has not spoken yet. It gets that one frame, which the
   * watchdog's margin before `gate.timeoutSeconds` leaves room for, then the policy decides.
   */
  private watchdog(why: string): void {
    if (this.stage === 'checks' && !this.checkGraced) {
      this.checkGraced = true;
      this.timers.push(fx.setTimeout(() => this.decideByPolicy(why), 0));
      return;
    }
    this.decideByPolicy(why);
  }

  /**
   * Decides now, without waiting for the service any longer (the watchdog, or the resource
   * stopping): by `gate.onError` on the last known record, or for further checks by the policy.
   */
  decideByPolicy(why: string): void {
    if (this.finished) return;
    const { gate } = this.deps.config;
    const messages = gate.messages;
    if (this.stage === 'checks') {
      const refusal = gate.onError === 'allow' ? undefined : formatMessage(messages.unavailable, this.values);
      if (refusal === undefined) this.admit(`${why} during a further check, allow`);
      else this.finish(refusal, `${why} during a further check, ${gate.onError}`);
      return;
    }
    const lastKnown = this.license === null ? undefined : this.deps.members()?.lastKnown(this.license);
    const admission = admissionFor(
      { kind: 'outage', error: new Error(why), lastKnown },
      gate,
      messages,
      this.values,
    );
    if (this.entry && admission.allow && admission.basis === 'last-known') this.entry.view = lastKnown;
    if (admission.allow) this.admit(`${why}, ${admission.basis}`);
    else this.finish(admission.message, `${why}, ${admission.basis}`);
  }

  /** Ends the join: refused with `refusal` (only while the gate is enabled), else admitted. */
  finish(refusal: string | undefined, note: string): void {
    if (this.finished) return;
    if (refusal === undefined || !this.deps.config.gate.enabled) {
      this.admit(note);
      return;
    }
    this.refuse(refusal, note);
  }

  /** Ends the join refused with `message`, even with the gate off (the server is going away). */
  refuse(message: string, note: string): void {
    if (this.finished) return;
    this.end();
    this.deps.logger.info(`${this.name || this.tempId} refused (${note})`);
    this.tell(false, note, message);
    // A refused player never gets a final id, so no playerDropped will clear them.
    this.deps.players.drop(this.tempId);
    this.deferrals.done(message);
  }

  /**
   * The one place a player is let in. Their entry holds the member's full record by now (from the
   * roster, or the last known one under the outage policy), so at `playerJoining` every export and
   * `roster:playerLoaded` have it, and the state bag once roster's own handler has run.
   */
  private admit(note: string): void {
    if (this.finished) return;
    this.end();
    this.deps.logger.info(`${this.name || this.tempId} admitted (${note})`);
    this.tell(true, note, undefined);
    this.deps.admitted?.(this.tempId);
    this.deferrals.done();
  }

  private tell(admitted: boolean, note: string, message: string | undefined): void {
    if (!this.deps.onDecision) return;
    const at = this.deps.clock.now();
    const license = this.deps.players.get(this.tempId)?.license ?? null;
    this.deps.onDecision({
      at,
      ms: at - this.startedAt,
      tempId: this.tempId,
      name: this.name,
      license,
      admitted,
      note,
      message,
    });
  }

  private end(): void {
    this.finished = true;
    this.onFinish();
    for (const timer of this.timers) fx.clearTimeout(timer);
  }
}

/** While the rate limiter makes the player wait, says so and for about how long. */
function announceWait(
  deps: GateDeps,
  deferrals: Deferrals,
  values: Record<string, string>,
  finished: () => boolean,
  timers: unknown[],
): void {
  const waitMs = deps.source()?.estimateWaitMs('join') ?? 0;
  if (waitMs < 1500) return;
  const until = deps.clock.now() + waitMs;
  const show = () => {
    if (finished()) return;
    const seconds = Math.max(1, Math.ceil((until - deps.clock.now()) / 1000));
    deferrals.update(
      formatMessage(deps.config.gate.messages.waiting, { ...values, seconds: String(seconds) }),
    );
    timers.push(fx.setTimeout(show, 1000));
  };
  show();
}
