import type { Dispatcher } from 'undici';
import { attachAudit } from '../../../src/features/audit/index';
import { admissionFor } from '../../../src/features/join-gate/admission';
import { watchdogAfterMs } from '../../../src/features/join-gate/deadline';
import { rosterVerdict } from '../../../src/features/join-gate/decide';
import { attachKeyCheck } from '../../../src/features/key-check/index';
import { attachMirror } from '../../../src/features/mirror/index';
import { type Config, loadSettings } from '../../../src/kernel/config';
import { buildRosterContext } from '../../../src/kernel/context';
import type { Logger } from '../../../src/platform/ports';
import type { MemberResolver, Resolution } from '../../../src/roster/member-resolver';
import { type FakeClock, ORIGIN } from '../../roster/client/fake-roster';
import type { Outcome } from './model-decisions';
import { API_KEY } from './model-service';
import { transportTaken, useTransport } from './model-transport';

/**
 * The resource as `startRoster` puts it together, over the model service: the app's own context
 * (`buildRosterContext`: the roster client, cache, players, member resolver) and the features that keep
 * the roster on the server (the key check, the audit feed, the mirror), attached and started in
 * the app's order. Only the transport is the model's: the client's connection pool is replaced by
 * the model's dispatcher (model-transport.ts), since the context takes no dispatcher of its own.
 * Jitter is the one thing left to chance there (`Math.random`): the history's runner seeds it.
 */
export interface ModelResource {
  config: Config;
  members: MemberResolver;
  /** Warnings and errors the resource logged, with this server's time. */
  lines: { at: number; level: string; message: string }[];
  /** A connecting player's lookup, as the join gate asks it (src/features/join-gate/fivem/gate.ts). */
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
  /** config.json as the owner writes it. */
  config: Record<string, unknown>;
}

export function startModelResource(inputs: ResourceInputs): ModelResource {
  const { clock } = inputs;
  // What the context and the key check ask of FXServer: no resource folder (no snapshot), and
  // somewhere for `roster:ready` to go.
  const fxGlobals = globalThis as { emit?: (...args: unknown[]) => void; GetResourcePath?: () => null };
  fxGlobals.emit ??= () => {};
  fxGlobals.GetResourcePath ??= () => null;
  const loaded = loadSettings(JSON.stringify(inputs.config), {
    apiKey: API_KEY,
    baseUrl: ORIGIN,
    logLevel: 'info',
    trainingApiKey: '',
  });
  if (!loaded.ok) throw new Error(`the model's config is refused: ${loaded.problems.join('; ')}`);
  const { settings } = loaded;
  const lines: ModelResource['lines'] = [];
  const line = (level: string) => (message: string) => {
    lines.push({ at: clock.now(), level, message });
  };
  const logger: Logger = { error: line('error'), warn: line('warn'), info: line('info'), debug: () => {} };
  useTransport(inputs.dispatcher);
  const context = buildRosterContext({
    resource: 'roster',
    settings,
    output: { logger, print: () => {} },
    clock,
    webToken: null,
  });
  if (!transportTaken())
    throw new Error(
      'the roster client opened its own connection pool, not the model service: the test file must mock src/http/keep-alive-pool.ts with model-transport.ts',
    );
  const { features, members, config } = context;
  // The features that keep the roster on the server, in the app's order (src/app/start.ts).
  for (const attach of [attachKeyCheck, attachAudit, attachMirror]) features.add(attach(context));
  features.start();

  const { gate } = config;
  return {
    config,
    members,
    lines,
    async join(license) {
      const resolution = await members.resolve(license, 'join', { decideOnly: true });
      // As the gate does: departments known by id only cannot be matched by name.
      if (resolution.kind === 'answer' && resolution.unnamed && gate.departments.length > 0)
        return {
          kind: 'outage',
          error: new Error('departments not loaded'),
          lastKnown: members.lastKnown(license),
        };
      return resolution;
    },
    watchdogMs: watchdogAfterMs(gate.timeoutSeconds * 1000),
    watchdog: (license) => ({
      kind: 'outage',
      error: new Error('no answer in time'),
      lastKnown: members.lastKnown(license),
    }),
    outcomeOf(resolution) {
      if (resolution.kind === 'answer') {
        const decision = rosterVerdict(resolution.view, gate);
        return decision.allow ? 'admit' : decision.reason;
      }
      const admission = admissionFor(resolution, gate, gate.messages, {});
      if (admission.allow) return 'admit';
      if (admission.basis === 'policy') return 'unavailable';
      const decision = rosterVerdict(resolution.lastKnown ?? null, gate);
      return decision.allow ? 'admit' : decision.reason;
    },
    async stop() {
      features.stop();
      context.schedule.stop();
      await context.api.close();
    },
  };
}
