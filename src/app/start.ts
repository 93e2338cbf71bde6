/*
 * How the resource is put together. `startRoster` reads the settings; with bad ones the resource
 * fails closed. Otherwise it builds one `RosterContext` (settings, output, clock, schedule, the
 * roster client, cache, players, catalog, member resolver and online players, the handles) and
 * attaches each feature in `FEATURES` (features.ts).
 */

import { type ExportingFeature, exportAnswers } from '../features/exports/exporting-feature';
import { registerExports } from '../features/exports/fivem/safe-exports';
import { webTokenSetting } from '../features/panel/web-token';
import { loadSettings, type Settings } from '../kernel/config';
import { buildRosterContext } from '../kernel/context';
import { type ConsoleOutput, consoleOutput } from '../platform/logger';
import { fx } from '../platform/natives';
import { type Clock, systemClock } from '../platform/ports';
import { failClosed } from './fail-closed';
import { FEATURES } from './features';
import { wrongNameProblem } from './resource-name';

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
