import type { RosterContext } from '../../kernel/context';
import { fx } from '../../platform/natives';
import { statusAdmits } from '../../roster/member-status';
import type { ExportingFeature } from '../exports/exporting-feature';
import { registerRankCommand } from './fivem/rank-command';
import { rankExports } from './fivem/rank-export';
import { rankChangeRecorder } from './fivem/rank-record';
import { RankChanges } from './rank-changes';

/**
 * Rank changes made from the server: the `rank` command and the `setRank` export, the only two
 * that make them. Each change is recorded in the console, `rank-changes.log` and
 * `roster:rankChanged`.
 */
export function attachRanks(context: RosterContext): ExportingFeature {
  const { catalog, online, players, api, config, clock, logger, resourcePath } = context;
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
  registerRankCommand(() => ranks, context.output, logger);
  return { exports: rankExports(ranks) };
}
