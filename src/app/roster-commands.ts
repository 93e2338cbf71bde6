import { withinOrFail } from '../core/answer-within';
import type { RosterApi } from '../core/api';
import type { MemberCache } from '../core/cache/member-cache';
import type { Config } from '../core/config';
import { runDoctor } from '../core/doctor/doctor';
import type { PlayerRegistry } from '../core/players/player-registry';
import type { Clock } from '../core/ports';
import type { RosterService } from '../core/roster/roster-service';
import { serverId, license as toLicense } from '../fivem/arguments';
import type { RosterCommands } from '../fivem/command';
import { memberLines, statusLines } from './status-report';

export interface RosterCommandDeps {
  apiKey: string;
  config: Config;
  api: RosterApi;
  service: RosterService;
  cache: MemberCache;
  players: PlayerRegistry;
  /** `roster training`: what the training side reports. */
  trainingLines: () => Promise<string[]>;
  community: () => string | null;
  clock: Clock;
  /** What the capabilities add to `doctor` (roster principals, training). */
  capabilityLines?: () => Promise<string[]>;
  /** Config mistakes that did not stop the resource (said at start); `doctor` repeats them. */
  configWarnings?: readonly string[];
}

/** What `roster status|lookup|refresh|doctor|training` answer, as console lines. */
export function rosterCommands(deps: RosterCommandDeps): RosterCommands {
  const { api, service, players, config } = deps;
  return {
    status: () =>
      statusLines({
        apiKey: deps.apiKey,
        community: deps.community(),
        cache: deps.cache,
        limiter: api.limiterState(),
        service,
        players,
        now: deps.clock.now(),
      }),
    lookup: async (target) => {
      const id = serverId(target);
      if (id !== null) {
        if (!players.get(id)) return [`no player ${id} is online`];
        return memberLines(await service.refreshPlayer(id), `player ${id}`);
      }
      const license = toLicense(target);
      if (license === null) return ['expected a server id or license:<40 hex>'];
      const resolution = await service.fetch(license, 'refresh');
      if (resolution.kind === 'outage') {
        return [`the roster could not answer: ${(resolution.error as Error).message}`];
      }
      return memberLines(resolution.view?.member ?? null, license);
    },
    refresh: async (target) => {
      if (target === 'all')
        return [`refreshed online players; ${await service.refreshOnline('refresh')} changed`];
      const id = serverId(target);
      if (id === null || !players.get(id)) return [`no player ${target} is online`];
      return memberLines(await service.refreshPlayer(id), `player ${id}`);
    },
    training: () => deps.trainingLines(),
    // Every check answers within gate.timeoutSeconds, whatever wait the service imposes.
    doctor: async () => {
      const ms = config.gate.timeoutSeconds * 1000;
      const within = <T>(work: Promise<T>, what: string) => withinOrFail(work, ms, deps.clock, what);
      return [
        ...(await runDoctor(
          {
            whoami: () => within(api.whoami(), 'The roster service (GET /api/v1/whoami)'),
            openapi: () => within(api.getRaw('/api/v1/openapi.json'), 'The roster service'),
            sampleLicense: async () => {
              const data = await within(
                api.get('/api/v1/members', { limit: 1 }, 'background'),
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
        ...(deps.configWarnings ?? []).map((warning) => `! config: ${warning}`),
        ...((await deps.capabilityLines?.()) ?? []),
      ];
    },
  };
}
