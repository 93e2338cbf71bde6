import type { RosterContext } from '../../kernel/context';
import { fx } from '../../platform/natives';
import { matchKey } from '../../roster/catalog-index';
import { registerRankCommand } from '../ranks/fivem/rank-command';
import { rankChangeRecorder } from '../ranks/fivem/rank-record';
import { RankChanges } from '../ranks/rank-changes';
import type { ExportingFeature } from './exporting-feature';
import { rosterExports } from './fivem/exports';

/**
 * What other resources and players call: the roster's exports and the `rank` command. Rank
 * changes live here because only these two make them; each change is recorded in the console,
 * `rank-changes.log` and `roster:rankChanged`.
 */
export function attachExports(context: RosterContext): ExportingFeature {
  const { service, queries, players, api, config, clock, logger, resourcePath } = context;
  const admitted = new Set(config.gate.requireStatus.map(matchKey));
  const ranks = new RankChanges({
    service,
    players,
    api,
    order: config.ranks.order,
    // Unknown until the key is verified: meanwhile a change is sent and the service decides.
    scopes: () => context.identity?.scopes ?? null,
    canManage: (src) => fx.IsPlayerAceAllowed(src, 'roster.manage'),
    admits: (status) => admitted.has(matchKey(status)),
    changed: rankChangeRecorder(resourcePath, logger, () => clock.now()),
    now: () => clock.now(),
    logger,
  });
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  registerRankCommand(() => ranks, context.output, logger);
  return {
    exports: rosterExports({
      service,
      queries,
      ranks,
      deadline: { ms: config.gate.timeoutSeconds * 1000, clock, stopped },
    }),
    // A lookup still waiting for the service is answered from memory as the resource stops.
    stop,
  };
}
