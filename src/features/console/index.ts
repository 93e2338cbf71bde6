import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { withinOrFail } from '../../platform/answer-within';
import { serverId, license as toLicense } from '../../platform/arguments';
import { type RosterCommands, registerRosterCommand } from '../../platform/command';
import { errorMessage } from '../../platform/error-message';
import { partialLicense } from '../../platform/partial-license';
import { claimedLicenseLines } from '../../roster/claimed-licenses';
import { ROSTER_ROUTES } from '../../roster/client';
import { trainingReportHandle } from '../training/handle';
import { runDoctor } from './doctor';
import { doctorSummary } from './doctor-summary';
import { memberLines, statusLines } from './status-report';

/** The owner's `roster` console command: status, lookup, refresh, doctor, training. */
export function attachRosterCommand(context: RosterContext): Feature {
  registerRosterCommand(rosterCommands(context), context.output);
  return {};
}

/** What `roster status|lookup|refresh|doctor|training` answer, as console lines. */
export function rosterCommands(context: RosterContext): RosterCommands {
  const { api, members, online, errors, players, config, clock, features } = context;
  return {
    status: () => [
      ...statusLines({
        apiKey: context.settings.apiKey,
        community: context.identity?.community.name ?? null,
        cache: context.cache,
        limiter: api.limiterState(),
        errors,
        players,
        now: clock.now(),
      }),
      ...features.statusLines(),
    ],
    lookup: async (target) => {
      const id = serverId(target);
      if (id !== null) {
        if (!players.get(id)) return [`no player ${id} is online`];
        return memberLines(await online.refreshPlayer(id), `player ${id}`);
      }
      const license = toLicense(target);
      if (license === null) return ['expected a server id or license:<40 hex>'];
      const resolution = await members.fetch(license, 'refresh');
      if (resolution.kind === 'outage') {
        return [`the roster could not answer: ${errorMessage(resolution.error)}`];
      }
      return memberLines(resolution.view?.member ?? null, license);
    },
    refresh: async (target) => {
      if (target === 'all')
        return [`refreshed online players; ${await online.refreshOnline('refresh')} changed`];
      const id = serverId(target);
      if (id === null || !players.get(id)) return [`no player ${target} is online`];
      return memberLines(await online.refreshPlayer(id), `player ${id}`);
    },
    training: async () => (await context.handles.get(trainingReportHandle)?.lines()) ?? [],
    // Every check answers within gate.timeoutSeconds, whatever wait the service imposes.
    doctor: async () => {
      const ms = config.gate.timeoutSeconds * 1000;
      const within = <T>(work: Promise<T>, what: string) => withinOrFail(work, ms, clock, what);
      const lines = [
        ...(await runDoctor(
          {
            whoami: () => within(api.whoami(), 'The roster service (GET /api/v1/whoami)'),
            openapi: () => within(api.getRaw(ROSTER_ROUTES.openapi), 'The roster service'),
            sampleLicense: async () => {
              const data = await within(
                api.get(ROSTER_ROUTES.members, { limit: 1 }, 'background'),
                'The roster service (GET /api/v1/members)',
              );
              const first = Array.isArray(data)
                ? (data[0] as { gameLicense?: unknown } | undefined)
                : undefined;
              return typeof first?.gameLicense === 'string' ? first.gameLicense : null;
            },
            lookup: (license) => within(api.lookup(license, 'background'), 'The roster service'),
            catalog: () => within(api.catalog(), 'The roster service (departments and ranks)'),
          },
          config.ranks.order,
          { auditSeconds: config.refresh.auditSeconds, intervalSeconds: config.refresh.intervalSeconds },
        )),
        // Config mistakes that did not stop the resource (said at start) are repeated here.
        ...context.settings.warnings.map((warning) => `! config: ${warning}`),
        ...(await features.doctorLines()),
        // Shown in part, as on the panel (which shows these lines too); the warning said it whole.
        ...claimedLicenseLines(context.claimedLicenses, (license) => partialLicense(license) ?? license),
      ];
      return [...lines, doctorSummary(lines)];
    },
  };
}
