import type { Config } from '../../kernel/config';
import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { rosterCommands } from '../console/index';
import { dutyHoursHandle } from '../duty/handle';
import { jobSyncHandle } from '../jobs/handle';
import { formatMessage } from '../join-gate/messages';
import { mirrorHandle } from '../mirror/handle';
import { shareHandle } from '../share/handle';
import { serveWebPanel } from './fivem/web-panel';
import type { RefusalTexts } from './join-reason';
import { createPanel } from './panel';

/**
 * The owner's panel, on only with `roster_web_token`. It records every
 * roster answer and join decision as they happen, cheaply, and reads the rest only when a page
 * asks: the same status, doctor and training report as the `roster` command.
 */
export function attachPanel(context: RosterContext): Feature {
  const { webToken, settings, config, api, errors, cache, players, clock, logger, resource } = context;
  if (webToken === null) return {};
  const commands = rosterCommands(context);
  const trainingOn = config.training.enabled && settings.trainingApiKey !== undefined;
  const community = () => context.identity?.community.name ?? 'community';
  const panel = createPanel({
    token: webToken,
    sources: {
      version: __ROSTER_VERSION__,
      identity: () => {
        const known = context.identity;
        return known ? { community: known.community.name, scopes: known.scopes } : null;
      },
      limiter: () => api.limiterState(),
      lastError: () => errors.last,
      cache: () => cache.stats(),
      mirror: () => context.handles.get(mirrorHandle)?.report() ?? null,
      sharing: () => context.handles.get(shareHandle)?.report() ?? null,
      claimedLicenses: () => ({
        licenses: context.claimedLicenses.list(),
        more: context.claimedLicenses.more,
      }),
      onlinePlayers: () => players.onlinePlayers(),
      onlineCount: () => players.onlineCount,
      connectingCount: () => players.connectingCount,
      training: () => (trainingOn ? commands.training() : null),
      doctor: () => commands.doctor(),
      dutyHours: (src) => context.handles.get(dutyHoursHandle)?.hours(src, 7) ?? null,
      jobOf: (src) => context.handles.get(jobSyncHandle)?.jobOf(src) ?? null,
    },
    refusalTexts: (decision) => refusalTexts(config, decision.name, community()),
    clock,
    logger,
    basePath: `/${resource}/`,
    secrets: [settings.apiKey, settings.trainingApiKey ?? ''],
    trustedProxies: config.panel.trustedProxies,
  });
  serveWebPanel(resource, panel.handler, logger);
  return {
    answered: (status) => panel.answered(status),
    decided: (decision) => panel.decided(decision),
  };
}

/** The refusal messages as the gate formats them for this player, to tell roster refusals apart. */
function refusalTexts(config: Config, player: string, community: string): RefusalTexts {
  const { messages } = config.gate;
  const values = { player, community };
  return {
    notOnRoster: formatMessage(messages.notOnRoster, values),
    notInDepartment: formatMessage(messages.notInDepartment, values),
    unavailable: formatMessage(messages.unavailable, values),
  };
}
