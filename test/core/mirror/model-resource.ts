import type { Dispatcher } from 'undici';
import { attachKeyCheck } from '../../../src/app/capabilities/key-check';
import { attachMirror } from '../../../src/app/capabilities/mirror';
import { attachRefresh } from '../../../src/app/capabilities/refresh';
import { Capabilities } from '../../../src/app/capability';
import type { RosterContext } from '../../../src/app/roster-context';
import { createRosterApi, joinHoldMs, rosterUserAgent } from '../../../src/core/api';
import { MemberCache } from '../../../src/core/cache/member-cache';
import { type Config, loadSettings } from '../../../src/core/config';
import { admissionFor } from '../../../src/core/gate/admission';
import { watchdogAfterMs } from '../../../src/core/gate/deadline';
import { decideJoin } from '../../../src/core/gate/decide';
import type { ApiMember } from '../../../src/core/model';
import { PlayerRegistry } from '../../../src/core/players/player-registry';
import type { Logger } from '../../../src/core/ports';
import { matchKey } from '../../../src/core/roster/catalog-index';
import { RosterQueries } from '../../../src/core/roster/queries';
import { type Resolution, RosterService } from '../../../src/core/roster/roster-service';
import { Schedule } from '../../../src/core/schedule';
import { type FakeClock, ORIGIN } from '../api/fake-roster';
import type { Random } from './model-random';
import type { Outcome } from './model-roster';
import { API_KEY } from './model-service';

/**
 * The resource as `startRoster` puts it together (src/app/roster-context.ts, start.ts), over the
 * model service: the roster client on the model's dispatcher, the cache, the service, and the
 * capabilities that keep the roster on the server (the key check, the audit feed, the mirror),
 * attached and started in the app's order. The context is built here rather than by
 * `buildRosterContext` only because that one opens its own connection pool: it takes no dispatcher.
 */
export interface ModelResource {
  config: Config;
  service: RosterService;
  /** Warnings and errors the resource logged, with this server's time. */
  lines: { at: number; level: string; message: string }[];
  /** A connecting player's lookup, as the join gate asks it (src/fivem/gate.ts). */
  join(license: string): Promise<Resolution>;
  /** What the gate decides on a resolution (`gate.onError` for an outage). */
  outcomeOf(resolution: Resolution): Outcome;
  /** How long a join may wait for the service before the gate's watchdog decides it. */
  watchdogMs: number;
  /** What the watchdog decides on: the outage policy, with the last known record. */
  watchdog(license: string): Resolution;
  stop(): Promise<void>;
}

export interface ResourceInputs {
  clock: FakeClock;
  dispatcher: Dispatcher;
  random: Random;
  /** config.json as the owner writes it. */
  config: Record<string, unknown>;
}

export function startModelResource(inputs: ResourceInputs): ModelResource {
  const { clock, random } = inputs;
  // The key check tells other resources `roster:ready` through FXServer's emit.
  const fxGlobals = globalThis as { emit?: (...args: unknown[]) => void };
  fxGlobals.emit ??= () => {};
  const loaded = loadSettings(JSON.stringify(inputs.config), {
    apiKey: API_KEY,
    baseUrl: ORIGIN,
    logLevel: 'info',
    trainingApiKey: '',
  });
  if (!loaded.ok) throw new Error(`the model's config is refused: ${loaded.problems.join('; ')}`);
  const { settings } = loaded;
  const { config } = settings;
  const lines: ModelResource['lines'] = [];
  const line = (level: string) => (message: string) => {
    lines.push({ at: clock.now(), level, message });
  };
  const timed: Logger = { error: line('error'), warn: line('warn'), info: line('info'), debug: () => {} };
  const capabilities = new Capabilities();
  const admittable = new Set(config.gate.requireStatus.map(matchKey));
  const joinNeedsDepartments = (member: ApiMember) =>
    !config.gate.enabled || admittable.has(matchKey(member.status));
  const api = createRosterApi({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: config.api.timeoutMs,
    perMinute: config.rateLimit.perMinute,
    maxWaitMs: config.rateLimit.maxWaitSeconds * 1000,
    perDay: config.rateLimit.perDay,
    userAgent: rosterUserAgent('0.0.0-model'),
    clock,
    logger: timed,
    random,
    dispatcher: inputs.dispatcher,
    joinHoldMs: joinHoldMs(config.gate.timeoutSeconds * 1000),
    onAnswer: (status) => capabilities.answered(status),
    joinNeedsDepartments,
  });
  const cache = new MemberCache({
    maxEntries: config.cache.maxEntries,
    ttlMs: config.cache.ttlSeconds * 1000,
    negativeTtlMs: config.cache.negativeTtlSeconds * 1000,
    now: () => clock.now(),
  });
  const players = new PlayerRegistry();
  const service = new RosterService({
    source: api,
    cache,
    players,
    events: { playerLoaded() {}, playerUpdated() {} },
    clock,
    logger: timed,
    catalogLoaded: (catalog) => capabilities.catalogLoaded(catalog),
    joinNeedsDepartments,
  });
  const schedule = new Schedule(clock, random);
  const context: RosterContext = {
    resource: 'roster',
    resourcePath: null,
    settings,
    config,
    output: { logger: timed, print: () => {} },
    logger: timed,
    clock,
    schedule,
    api,
    cache,
    players,
    service,
    queries: new RosterQueries(config.gate.requireStatus, config.ranks.order, () => service.catalog),
    webToken: null,
    identity: null,
    capabilities,
  };
  for (const attach of [attachKeyCheck, attachRefresh, attachMirror]) capabilities.add(attach(context));
  capabilities.start();

  const { gate } = config;
  return {
    config,
    service,
    lines,
    async join(license) {
      const resolution = await service.resolve(license, 'join', { decideOnly: true });
      // As the gate does: departments known by id only cannot be matched by name.
      if (resolution.kind === 'answer' && resolution.unnamed && gate.departments.length > 0)
        return {
          kind: 'outage',
          error: new Error('departments not loaded'),
          lastKnown: service.lastKnown(license),
        };
      return resolution;
    },
    watchdogMs: watchdogAfterMs(gate.timeoutSeconds * 1000),
    watchdog: (license) => ({
      kind: 'outage',
      error: new Error('no answer in time'),
      lastKnown: service.lastKnown(license),
    }),
    outcomeOf(resolution) {
      if (resolution.kind === 'answer') {
        const decision = decideJoin(resolution.view, gate);
        return decision.allow ? 'admit' : decision.reason;
      }
      const admission = admissionFor(resolution, gate, gate.messages, {});
      if (admission.allow) return 'admit';
      if (admission.basis === 'policy') return 'unavailable';
      const decision = decideJoin(resolution.lastKnown ?? null, gate);
      return decision.allow ? 'admit' : decision.reason;
    },
    async stop() {
      capabilities.stop();
      schedule.stop();
      await api.close();
    },
  };
}
