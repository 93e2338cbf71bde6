/*
 * How the resource is put together. `startRoster` reads the settings; with bad ones the resource
 * fails closed. Otherwise it builds one `RosterContext` (settings, output, clock, schedule, the
 * roster client, cache, players, catalog, member resolver and online players, the handles) and
 * attaches each feature in `FEATURES`.
 *
 * To add a feature: make its folder under `features/`, whose `index.ts` exports `attachX(context)`,
 * and add one line to the list below; nothing else here changes. `attachX` registers the feature's
 * own handlers and commands (its timers in `start`) and returns the hooks it needs (`Feature` in
 * kernel/feature.ts: start, stop, ready, a player's data, doctor lines…) and its answers to
 * documented exports (each declared once, in features/exports/documented-exports.ts). A value it
 * offers the others is a handle (kernel/handle.ts) declared in its folder and provided when
 * attached; a feature that asks for it reads it when needed, null while the provider is off. A
 * moment several features must hear of, that no hook covers yet, becomes a new optional hook,
 * called where that moment happens. The place in the list matters: features are attached, started
 * and stopped in list order, and every hook is called in list order too.
 */

import { attachRosterCommand } from '../features/console/index';
import { attachDailyBudget } from '../features/day-budget/index';
import { attachDutyHours } from '../features/duty/index';
import { type ExportingFeature, exportAnswers } from '../features/exports/exporting-feature';
import { registerExports } from '../features/exports/fivem/safe-exports';
import { attachExports } from '../features/exports/index';
import { attachJobs } from '../features/jobs/index';
import { attachJoinGate } from '../features/join-gate/index';
import { attachKeyCheck } from '../features/key-check/index';
import { attachMirror } from '../features/mirror/index';
import { attachPanel } from '../features/panel/index';
import { webTokenSetting } from '../features/panel/web-token';
import { attachPermissions } from '../features/permissions/index';
import { attachPlayers } from '../features/players/index';
import { attachRefresh } from '../features/players/refresh';
import { attachQueuePriority } from '../features/queue/index';
import { attachShare } from '../features/share/index';
import { attachSnapshot } from '../features/snapshot/index';
import { attachTraining } from '../features/training/index';
import { loadSettings, type Settings } from '../kernel/config';
import { buildRosterContext, type RosterContext } from '../kernel/context';
import { type ConsoleOutput, consoleOutput } from '../platform/logger';
import { fx } from '../platform/natives';
import { type Clock, systemClock } from '../platform/ports';
import { failClosed } from './fail-closed';
import { wrongNameProblem } from './resource-name';

/** A feature's entry point: registers what the feature needs, hands back its hooks and export answers. */
type AttachFeature = (context: RosterContext) => ExportingFeature;

const FEATURES: readonly AttachFeature[] = [
  // First to stop: the players still waiting are decided while everything else still runs.
  attachJoinGate,
  // First to start: what a previous run granted is removed before anything grants again.
  attachPermissions,
  // Loaded when attached, so the last-known members are there before the first lookup.
  attachSnapshot,
  // Before the players: its playerJoining handler must run before the roster's, which may emit.
  attachTraining,
  attachPlayers,
  attachExports,
  attachRosterCommand,
  attachPanel,
  // After the players: the lookups of those already online queue ahead of the key check.
  attachKeyCheck,
  attachRefresh,
  attachMirror,
  // After the mirror, which it shares: it holds the mirror's own reads until the database says who reads.
  attachShare,
  attachQueuePriority,
  attachDutyHours,
  attachJobs,
  // Its count of the day is read back when attached, before any request; its doctor line comes last.
  attachDailyBudget,
];

/**
 * Reads the settings and attaches everything; with bad settings, or under another name than
 * `roster`, the resource fails closed.
 */
export function startRoster(): void {
  const resource = fx.GetCurrentResourceName();
  // Checked before any setting: under another name the key reads as unset, and saying so would
  // send the owner to fix a key that is fine. Nothing is read, so there is no secret to redact.
  const misnamed = wrongNameProblem(resource);
  if (misnamed) {
    failClosed(
      [misnamed],
      consoleOutput('info', () => []),
    );
    return;
  }
  const convars = {
    apiKey: fx.GetConvar('roster_api_key', ''),
    baseUrl: fx.GetConvar('roster_base_url', ''),
    logLevel: fx.GetConvar('roster_log_level', ''),
    trainingApiKey: fx.GetConvar('roster_training_api_key', ''),
  };
  // Read once: changing the convar later takes a restart, like the key.
  const web = webTokenSetting(fx.GetConvar('roster_web_token', ''));
  const secrets = [
    convars.apiKey.trim(),
    convars.trainingApiKey.trim(),
    web.state === 'on' ? web.token : '',
  ].filter((s) => s !== '');
  const result = loadSettings(fx.LoadResourceFile(resource, 'config.json'), convars);
  const output = consoleOutput(result.ok ? result.settings.logLevel : 'info', () => secrets);
  if (!result.ok) {
    failClosed(result.problems, output);
    return;
  }
  for (const warning of result.settings.warnings) output.logger.warn(warning);
  if (web.state === 'invalid') output.logger.warn(web.problem);
  run(resource, result.settings, output, systemClock, web.state === 'on' ? web.token : null);
}

function run(
  resource: string,
  settings: Settings,
  output: ConsoleOutput,
  clock: Clock,
  webToken: string | null,
): void {
  const context = buildRosterContext({ resource, settings, output, clock, webToken });
  const { features } = context;
  const attached: ExportingFeature[] = [];
  for (const attach of FEATURES) {
    const feature = attach(context);
    features.add(feature);
    attached.push(feature);
  }
  // The same list as when failing closed: an export no feature answers gives its empty answer.
  registerExports(exportAnswers(attached), output.logger);
  fx.on('onResourceStart', (name: string) => {
    if (name === resource) features.start();
  });
  // Synchronous to the end: FXServer tears the resource down right after this event, so nothing
  // here may wait for a later tick.
  fx.on('onResourceStop', (name: string) => {
    if (name !== resource) return;
    features.stop();
    context.schedule.stop();
    void context.api.close();
  });
}
