import { startMockRoster } from '../mock-roster/server';
import { type GateKind, rosterReady, sleep, startGateServer } from './gate-servers';
import { choosePlayers } from './population';
import type { Progress } from './progress';
import { SERVICE_LATENCY_MS } from './storm-scenario';

export interface ReconnectResult {
  /** Requests during the reconnects. */
  requests: number;
  /** Requests of the players' first connection, before the reconnects. */
  warmUpRequests: number;
  wrong: number;
}

/**
 * `players` players connect once (spread over 2 s), then each drops and reconnects `rounds`
 * times, one round every `roundMs`, all within a minute of the first connection. Counts the
 * requests the reconnects cost.
 */
export async function reconnectStorm(
  kind: GateKind,
  options: {
    players: number;
    rounds: number;
    roundMs: number;
    progress?: Progress;
    /** roster only: 'off' sets mirror.enabled false, so what the cache does is measured alone. */
    mirror: 'on' | 'off';
  },
): Promise<ReconnectResult> {
  const mock = await startMockRoster({ port: 0, members: 2_000, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const gate = await startGateServer(
    kind,
    mock,
    kind === 'roster' && options.mirror === 'off' ? { config: { mirror: { enabled: false } } } : {},
  );
  const players = choosePlayers(mock.data, options.players, { seed: 7 });
  const ids = new Map<number, number>();
  let wrong = 0;
  const connectAll = async (round: number) => {
    await Promise.all(
      players.map(async (player, index) => {
        await sleep((index * 2_000) / players.length);
        const previous = ids.get(index);
        if (previous !== undefined) gate.server.dropPlayer(previous, 'Reconnecting');
        ids.delete(index);
        const decision = await gate.server.connectPlayer({ name: player.name, identifiers: [player.license] })
          .decision;
        if (decision.admitted) ids.set(index, decision.id);
        if (decision.admitted !== player.shouldAdmit) wrong++;
      }),
    );
    options.progress?.update(`reconnect storm, ${kind}: round ${round}/${options.rounds} done`);
  };
  try {
    await rosterReady(gate, mock);
    if (kind === 'roster') await sleep(3_000);
    const before = mock.counters.log.length;
    const began = Date.now();
    await connectAll(0);
    await sleep(SERVICE_LATENCY_MS * 4);
    const warmUpRequests = mock.counters.log.length - before;
    const mark = mock.counters.log.length;
    for (let round = 1; round <= options.rounds; round++) {
      await sleep(Math.max(0, began + round * options.roundMs - Date.now()));
      await connectAll(round);
    }
    await sleep(SERVICE_LATENCY_MS * 4);
    return { requests: mock.counters.log.length - mark, warmUpRequests, wrong };
  } finally {
    gate.close();
    await mock.close();
  }
}
