import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { principalsFor } from './fivem/permissions';

/**
 * Roster data as ACE principals. Every call site of the grants is a hook:
 * the gate's admission, a player's data moving, a player leaving, the rank ladders, the sweep.
 * Its start must come before anything grants (what a previous run left is removed first), and its
 * stop after the gate's, which may still admit a player.
 */
export function attachPermissions(context: RosterContext): Feature {
  const grants = principalsFor({
    resource: context.resource,
    resourcePath: context.resourcePath,
    config: context.config,
    players: context.players,
    members: () => context.members,
    catalog: () => context.catalog,
    logger: context.logger,
  });
  return {
    start: () => grants.start(),
    stop: () => grants.stop(),
    admitted: (tempId) => grants.admitted(tempId),
    playerLoaded: (src, member) => grants.follow(src, member),
    playerUpdated: (src, member) => grants.follow(src, member),
    dropped: (entry) => grants.dropped(entry),
    catalogLoaded: (catalog) => grants.catalogLoaded(catalog),
    sweep: () => grants.sweep(),
    doctorLines: () => grants.doctorLines(),
  };
}
