import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { onServerShuttingDown } from '../../platform/txadmin-events';
import { attachGate } from './fivem/gate';

/**
 * The join gate: every connecting player is deferred and decided within
 * `gate.timeoutSeconds`. Listed first so its stop comes first: the players still waiting are
 * decided on what is known while everything else still runs (an admission grants principals),
 * because FXServer never ends a deferral by itself.
 */
export function attachJoinGate(context: RosterContext): Feature {
  const { features } = context;
  const gate = attachGate({
    // Read at each join: the features that add a check are attached after the gate.
    joinChecks: () => features.joinChecks(),
    config: context.config,
    members: () => context.members,
    source: () => context.api,
    players: context.players,
    community: () => context.identity?.community.name ?? 'community',
    clock: context.clock,
    logger: context.logger,
    admitted: (tempId) => features.admitted(tempId),
    onDecision: (decision) => features.decided(decision),
  });
  // txAdmin kills the process a few seconds after this notice, often before onResourceStop runs.
  onServerShuttingDown(context.logger, (notice) => {
    const waiting = gate.shutDown(notice.message);
    context.logger.info(
      `txAdmin shuts the server down in ${Math.round(notice.delayMs / 1000)}s (${notice.author || 'no author'}): ${waiting} waiting join(s) told so; joins are refused from now on.`,
    );
  });
  return { stop: () => gate.stop() };
}
