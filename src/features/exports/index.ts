import type { RosterContext } from '../../kernel/context';
import type { ExportingFeature } from './exporting-feature';
import { rosterExports } from './fivem/exports';

/** What other resources call about members, departments and ranks: the roster's own exports. */
export function attachExports(context: RosterContext): ExportingFeature {
  const { members, online, queries, config, clock } = context;
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  return {
    exports: rosterExports({
      members,
      online,
      queries,
      deadline: { ms: config.gate.timeoutSeconds * 1000, clock, stopped },
    }),
    // A lookup still waiting for the service is answered from memory as the resource stops.
    stop,
  };
}
