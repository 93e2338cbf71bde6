import { registerExports } from '../features/exports/fivem/safe-exports';
import { attachGate } from '../features/join-gate/fivem/gate';
import { registerRankCommand } from '../features/ranks/fivem/rank-command';
import { configSchema } from '../kernel/config';
import { registerRosterCommand } from '../platform/command';
import type { ConsoleOutput } from '../platform/logger';
import { fx } from '../platform/natives';
import { systemClock } from '../platform/ports';
import { PlayerRegistry } from '../roster/player-registry';

/**
 * With settings it cannot run on, the resource still answers: every connecting player is refused
 * with a clear message, exports give their empty answers, the commands say what to fix. Nothing
 * else starts, so no request is ever sent with a bad key or address.
 */
export function failClosed(problems: string[], output: ConsoleOutput): void {
  const { logger } = output;
  logger.error(
    `not started: ${problems.length} problem(s) to fix. Connecting players are refused until then.`,
  );
  for (const problem of problems) logger.error(problem);
  const gate = attachGate({
    config: configSchema.parse({}),
    members: () => null,
    source: () => null,
    players: new PlayerRegistry(),
    community: () => 'community',
    clock: systemClock,
    logger,
  });
  // Every documented export, none answered: each gives its empty answer.
  registerExports({}, logger);
  registerRankCommand(() => null, output, logger);
  const resource = fx.GetCurrentResourceName();
  // Players still in the gate are refused now: FXServer never ends a deferral by itself.
  fx.on('onResourceStop', (name: string) => {
    if (name === resource) gate.stop();
  });
  const notSetUp = async () => ['the resource is not set up:', ...problems.map((p) => `  ${p}`)];
  registerRosterCommand(
    {
      status: () => ['not set up; run `roster doctor`'],
      lookup: notSetUp,
      refresh: notSetUp,
      doctor: notSetUp,
      training: notSetUp,
    },
    output,
  );
}
