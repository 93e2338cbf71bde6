import type { RosterContext } from '../../kernel/context';
import { fx } from '../../platform/natives';
import { statusAdmits } from '../../roster/member-status';
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
  const { catalog, members, online, queries, players, api, config, clock, logger, resourcePath } = context;
  const ranks = new RankChanges({
    catalog,
    online,
    players,
    api,
    order: config.ranks.order,
    // Unknown until the key is verified: meanwhile a change is sent and the service decides.
    scopes: () => context.identity?.scopes ?? null,
    canManage: (src) => fx.IsPlayerAceAllowed(src, 'roster.manage'),
    admits: statusAdmits(config.gate.requireStatus),
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
      members,
      online,
      queries,
      ranks,
      deadline: { ms: config.gate.timeoutSeconds * 1000, clock, stopped },
    }),
    // A lookup still waiting for the service is answered from memory as the resource stops.
    stop,
  };
}
