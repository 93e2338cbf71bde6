import type { AuditFeed } from '../core/audit/audit-feed';
import { scheduleRefresh } from '../core/audit/refresh-plan';
import { loadSettings, type Settings } from '../core/config';
import { type Clock, systemClock } from '../core/ports';
import { type ConsoleOutput, consoleOutput } from '../fivem/logger';
import { fx } from '../fivem/natives';
import { webTokenSetting } from '../panel/web-token';
import { startAuditFeed } from './audit-start';
import { attachExports } from './capabilities/exports';
import { attachJoinGate } from './capabilities/join-gate';
import { attachKeyCheck } from './capabilities/key-check';
import { attachPanel } from './capabilities/panel';
import { attachPermissions } from './capabilities/permissions';
import { attachPlayers } from './capabilities/players';
import { attachRosterCommand } from './capabilities/roster-command';
import { attachSnapshot } from './capabilities/snapshot';
import { attachTraining } from './capabilities/training';
import { failClosed } from './fail-closed';
import { buildRosterContext } from './roster-context';

const CATALOG_REFRESH_MS = 30 * 60_000;

/** Reads the settings and attaches everything; with bad settings the resource fails closed. */
export function startRoster(): void {
  const resource = fx.GetCurrentResourceName();
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
  const { logger, config, api, players, service, schedule, capabilities } = context;
  capabilities.add(attachJoinGate(context));
  capabilities.add(attachPermissions(context));
  // While the key was refused nothing was sent: players admitted meanwhile by gate.onError have no
  // roster data, and everyone online may have changed. Read them all again the moment it resumes,
  // not at the next background refresh.
  api.onStateChange((change) => {
    if (change.state === 'resumed') service.refreshOnline('refresh').catch(() => {});
  });

  let feed: AuditFeed | null = null;
  const startedAt = clock.now();
  capabilities.add(attachSnapshot(context));

  capabilities.add(attachTraining(context));
  capabilities.add(attachPlayers(context));
  capabilities.add(attachExports(context));
  capabilities.add(attachRosterCommand(context));
  capabilities.add(attachPanel(context));

  capabilities.add(attachKeyCheck(context));
  capabilities.add({
    ready: (identity) => {
      feed ??= startAuditFeed(
        {
          api,
          service,
          players,
          schedule,
          clock,
          logger,
          auditSeconds: config.refresh.auditSeconds,
          startedAt,
        },
        identity.scopes,
      );
    },
  });

  capabilities.add({
    start: () => {
      scheduleRefresh({
        schedule,
        clock,
        service,
        intervalMs: config.refresh.intervalSeconds * 1000,
        feed: () => feed,
      });
      schedule.every(
        CATALOG_REFRESH_MS,
        async () => {
          await service.loadCatalog(true);
          capabilities.departmentsRead(service.catalog);
        },
        0.1,
      );
    },
  });
  fx.on('onResourceStart', (name: string) => {
    if (name !== resource) return;
    // Before any grant: what a previous run left is removed first.
    capabilities.start();
  });
  fx.on('onResourceStop', (name: string) => {
    if (name !== resource) return;
    capabilities.stop();
    schedule.stop();
    void api.close();
  });
}
