import { licenseOf } from '../platform/identifiers';
import type { ConsoleOutput } from '../platform/logger';
import { fx } from '../platform/natives';
import type { Clock, Logger } from '../platform/ports';
import { RosterCatalog } from '../roster/catalog';
import { ClaimedLicenses } from '../roster/claimed-licenses';
import { createRosterApi, joinHoldMs, type RosterApi, rosterUserAgent } from '../roster/client';
import { fivemRosterEvents } from '../roster/fivem/publish';
import { MemberCache } from '../roster/member-cache';
import { MemberResolver } from '../roster/member-resolver';
import { statusAdmits } from '../roster/member-status';
import type { ApiMember, KeyIdentity } from '../roster/model';
import { OnlinePlayers } from '../roster/online-players';
import { PlayerRegistry } from '../roster/player-registry';
import { RosterQueries } from '../roster/queries';
import { RosterErrors } from '../roster/roster-errors';
import type { Config, Settings } from './config';
import { Features } from './feature';
import { Handles } from './handle';
import { Schedule } from './schedule';

/** What every feature shares: the settings, the output, the clock and the roster core. */
export interface RosterContext {
  readonly resource: string;
  /** The resource folder (the snapshot, the principal ledger, the rank log); null when FXServer has none. */
  readonly resourcePath: string | null;
  readonly settings: Settings;
  readonly config: Config;
  readonly output: ConsoleOutput;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The roster side's timers, stopped together on `onResourceStop`. */
  readonly schedule: Schedule;
  readonly api: RosterApi;
  readonly cache: MemberCache;
  readonly players: PlayerRegistry;
  /** Departments and ranks. */
  readonly catalog: RosterCatalog;
  /** A license's member record: the mirror, the cache, the service; the last known in an outage. */
  readonly members: MemberResolver;
  /** The players online and their roster data, changes announced. */
  readonly online: OnlinePlayers;
  /** What went wrong reading the roster, the last one kept. */
  readonly errors: RosterErrors;
  readonly queries: RosterQueries;
  /**
   * Licenses seen claimed by several members (the most recent membership decides): told by every
   * lookup by license and by the roster mirror's reads; listed by `roster doctor` and the panel.
   */
  readonly claimedLicenses: ClaimedLicenses;
  /** `roster_web_token` when the owner's panel is on, else null. */
  readonly webToken: string | null;
  /** The verified key; null until the key check succeeds, which alone sets it. */
  identity: KeyIdentity | null;
  readonly features: Features;
  /** What one feature offers the others to ask for, each declared in its provider's folder. */
  readonly handles: Handles;
}

export interface ContextInputs {
  resource: string;
  settings: Settings;
  output: ConsoleOutput;
  clock: Clock;
  webToken: string | null;
}

/**
 * Builds the roster core. Nothing is registered with FXServer here: what the resource offers comes
 * from the features attached afterwards, and what happens in the core reaches them through
 * their hooks (a request's status, a player's data, departments and ranks).
 */
export function buildRosterContext(inputs: ContextInputs): RosterContext {
  const { settings, output, clock } = inputs;
  const { logger } = output;
  const { config } = settings;
  const features = new Features();
  const claimedLicenses = new ClaimedLicenses(logger);
  // A status the gate refuses needs no departments to decide; with the gate off, every join does.
  const admits = statusAdmits(config.gate.requireStatus);
  const joinNeedsDepartments = (member: ApiMember) => !config.gate.enabled || admits(member.status);
  const api = createRosterApi({
    baseUrl: settings.baseUrl,
    addressSetting: settings.baseUrlSetting,
    apiKey: settings.apiKey,
    timeoutMs: config.api.timeoutMs,
    perMinute: config.rateLimit.perMinute,
    maxWaitMs: config.rateLimit.maxWaitSeconds * 1000,
    perDay: config.rateLimit.perDay,
    userAgent: rosterUserAgent(__ROSTER_VERSION__),
    clock,
    logger,
    joinHoldMs: joinHoldMs(config.gate.timeoutSeconds * 1000),
    onAnswer: (status) => features.answered(status),
    joinNeedsDepartments,
    claims: claimedLicenses,
  });
  const cache = new MemberCache({
    maxEntries: config.cache.maxEntries,
    ttlMs: config.cache.ttlSeconds * 1000,
    negativeTtlMs: config.cache.negativeTtlSeconds * 1000,
    now: () => clock.now(),
  });
  const players = new PlayerRegistry(licenseOf);
  const errors = new RosterErrors(clock, logger);
  const catalog = new RosterCatalog({
    source: api,
    clock,
    errors,
    loaded: (index) => features.catalogLoaded(index),
  });
  const members = new MemberResolver({ source: api, cache, catalog, errors, joinNeedsDepartments });
  const online = new OnlinePlayers({
    players,
    members,
    catalog,
    // The features hear a change first, so what they hold (principals) moves in the same step
    // as the event and the state bag.
    events: {
      playerLoaded(src, member) {
        features.playerLoaded(src, member);
        fivemRosterEvents.playerLoaded(src, member);
      },
      playerUpdated(src, member, previous) {
        features.playerUpdated(src, member, previous);
        fivemRosterEvents.playerUpdated(src, member, previous);
      },
    },
    errors,
  });
  return {
    resource: inputs.resource,
    resourcePath: fx.GetResourcePath(inputs.resource),
    settings,
    config,
    output,
    logger,
    clock,
    schedule: new Schedule(clock),
    api,
    cache,
    players,
    catalog,
    members,
    online,
    errors,
    queries: new RosterQueries(config.gate.requireStatus, config.ranks.order, () => catalog.index),
    claimedLicenses,
    webToken: inputs.webToken,
    identity: null,
    features,
    handles: new Handles(),
  };
}
