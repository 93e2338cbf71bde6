import type { Config } from '../core/config';
import { admissionFor } from '../core/gate/admission';
import { checkMarginMs, watchdogAfterMs } from '../core/gate/deadline';
import { formatMessage } from '../core/gate/messages';
import type { PlayerEntry, PlayerRegistry } from '../core/players/player-registry';
import type { Clock, Logger } from '../core/ports';
import type { RosterService } from '../core/roster/roster-service';
import type { RosterSource } from '../core/roster/roster-source';
import type { JoinDecisionListener } from '../panel/join-decision';
import { licenseOf } from './identifiers';
import { type Deferrals, fx } from './natives';

/**
 * A further check a joining player must pass once the roster admits them (e.g. required training).
 * Resolves to a refusal message, or `undefined` to admit. Runs inside the same deadline.
 */
export type JoinCheck = (player: {
  tempId: string;
  name: string;
  /** When the gate decides without the check (epoch ms): answer before it, on what is known. */
  deadlineAt: number;
}) => Promise<string | undefined>;

export interface GateDeps {
  /** Further checks, in order, after the roster admits. */
  joinChecks?: readonly JoinCheck[];
  config: Config;
  /** `null` while the resource is not set up: every player is refused with the not-configured message. */
  service: () => RosterService | null;
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

/** Longest an admitted player waits for their departments before `done()`. */
const DEPARTMENTS_WAIT_MS = 250;

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => fx.setTimeout(() => resolve(undefined), ms));
}

/** Attaches the join gate: defers every connection and always ends it within `gate.timeoutSeconds`. */
export function attachGate(deps: GateDeps): void {
  fx.on('playerConnecting', (name: string, _setKickReason: unknown, deferrals: Deferrals) => {
    // `source` is only valid during the synchronous part of the handler: copy it first.
    const tempId = String(fx.source);
    deferrals.defer();
    // FXServer needs a tick between defer() and the first update/done.
    fx.setTimeout(() => {
      const player = typeof name === 'string' ? name : '';
      gatePlayer(deps, tempId, player, deferrals).catch((error: unknown) => {
        // Never leave a deferral open: an unexpected failure is decided like an outage.
        deps.logger.error(
          `the join check of ${player || tempId} failed: ${(error as Error)?.message ?? error}`,
        );
        const { gate } = deps.config;
        if (!gate.enabled || gate.onError === 'allow') deferrals.done();
        else
          deferrals.done(formatMessage(gate.messages.unavailable, { player, community: deps.community() }));
      });
    }, 0);
  });
}

async function gatePlayer(deps: GateDeps, tempId: string, name: string, deferrals: Deferrals): Promise<void> {
  const { config, clock, logger } = deps;
  const { gate } = config;
  const messages = gate.messages;
  const values = { player: name, community: deps.community() };
  let finished = false;
  const timers: unknown[] = [];
  const startedAt = clock.now();
  const finish = (refusal: string | undefined, note: string) => {
    if (finished) return;
    finished = true;
    for (const timer of timers) fx.clearTimeout(timer);
    const refused = refusal !== undefined && gate.enabled;
    logger.info(`${name || tempId} ${refused ? 'refused' : 'admitted'} (${note})`);
    if (deps.onDecision) {
      const at = clock.now();
      const license = deps.players.get(tempId)?.license ?? null;
      deps.onDecision({ at, ms: at - startedAt, name, license, admitted: !refused, note, message: refusal });
    }
    if (refused) {
      // A refused player never gets a final id, so no playerDropped will clear them.
      deps.players.drop(tempId);
      deferrals.done(refusal);
    } else {
      deps.admitted?.(tempId);
      deferrals.done();
    }
  };

  const service = deps.service();
  if (service === null) {
    finish(formatMessage(messages.notConfigured, values), 'roster check not set up');
    return;
  }
  deferrals.update(formatMessage(messages.checking, values));

  const license = licenseOf(tempId);
  const entry: PlayerEntry = { license, name, view: undefined, since: clock.now() };
  deps.players.connect(tempId, entry);

  if (gate.bypassAce !== '' && fx.IsPlayerAceAllowed(tempId, gate.bypassAce)) {
    finish(undefined, `bypass ACE ${gate.bypassAce}`);
    return;
  }
  if (license === null) {
    finish(formatMessage(messages.noLicense, values), 'no license identifier');
    return;
  }

  const timeoutMs = gate.timeoutSeconds * 1000;
  const deadlineMs = watchdogAfterMs(timeoutMs);
  // Further checks answer a little before the watchdog, so their own outage rules can decide.
  const deadlineAt = clock.now() + deadlineMs - checkMarginMs(deadlineMs);
  // The watchdog ends the deferral even if the lookup or a further check never settles.
  let stage: 'roster' | 'checks' | 'admitted' = 'roster';
  timers.push(
    fx.setTimeout(() => {
      if (stage === 'admitted') {
        finish(undefined, 'admitted; departments still loading');
        return;
      }
      if (stage === 'checks') {
        const refusal = gate.onError === 'allow' ? undefined : formatMessage(messages.unavailable, values);
        finish(refusal, `a further check gave no answer within ${gate.timeoutSeconds}s, ${gate.onError}`);
        return;
      }
      const admission = admissionFor(
        { kind: 'outage', error: new Error('deadline'), lastKnown: service.lastKnown(license) },
        gate,
        messages,
        values,
      );
      finish(
        admission.allow ? undefined : admission.message,
        `no answer within ${gate.timeoutSeconds}s, ${admission.basis}`,
      );
    }, deadlineMs),
  );
  announceWait(deps, deferrals, values, () => finished, timers);

  // Without a department rule the member's status decides, so departments need not hold up the join.
  let resolution = await service.resolve(license, 'join', { statusOnly: gate.departments.length === 0 });
  if (resolution.kind === 'answer' && resolution.unnamed && gate.departments.length > 0) {
    // Departments known by id only cannot be matched by name: the service could not fully answer.
    resolution = {
      kind: 'outage',
      error: new Error('departments not loaded'),
      lastKnown: service.lastKnown(license),
    };
  }
  if (resolution.kind === 'outage') entry.view = resolution.lastKnown;
  else if (!resolution.partial) entry.view = resolution.view;
  const admission = admissionFor(resolution, gate, messages, values);
  const basis = resolution.kind === 'answer' ? 'roster' : `service unavailable, ${admission.basis}`;
  if (!admission.allow) {
    finish(admission.message, basis);
    return;
  }
  // On a quiet server the departments arrive within a round trip: a short wait, alongside any
  // further checks, means exports answer in full from the moment the player joins.
  const departments =
    resolution.kind === 'answer' && resolution.partial
      ? Promise.race([service.resolve(license, 'refresh'), delay(DEPARTMENTS_WAIT_MS)])
      : undefined;
  if (finished) return;
  stage = 'checks';
  for (const check of deps.joinChecks ?? []) {
    const refusal = await check({ tempId, name, deadlineAt }).catch((error: unknown) => {
      logger.warn(`a join check failed: ${(error as Error)?.message ?? String(error)}`);
      return gate.onError === 'allow' ? undefined : formatMessage(messages.unavailable, values);
    });
    if (refusal !== undefined) {
      finish(refusal, `${basis}; a further check refused`);
      return;
    }
  }
  stage = 'admitted';
  const full = await departments;
  if (full?.kind === 'answer' && !full.partial) entry.view = full.view;
  finish(undefined, basis);
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
