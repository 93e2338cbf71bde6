import { oxmysqlConnected, startOxmysql } from '../stand-ins/oxmysql';
import type { FleetPlayer, FleetSample, FromFleetServer, ToFleetServer } from './fleet-protocol';
import { FullDataProbe } from './full-data-probe';
import { type GateServer, mirrorHolds, sleep, startGateServer } from './gate-servers';
import { runJoinStorm } from './join-storm';

/**
 * One game server of the fleet scenario, in a process of its own (the bench forks itself with
 * `FLEET_SERVER_FLAG`): its own FXServer emulator with the roster resource from `dist/server.js`,
 * talking to the parent's mock roster over loopback. The parent tells it when to start and whom
 * to connect when; it reports when the resource is connected and its mirror complete, then every
 * decision and when each admitted player's data was complete.
 */
export function runFleetServer(): void {
  const send = (message: FromFleetServer) => process.send?.(message);
  let gate: (GateServer & { startGate(): void }) | null = null;
  let probe: FullDataProbe | null = null;
  /** The departments the service holds for each license of the storm (lowercase). */
  const truth = new Map<string, number | null>();
  const fail = (error: unknown) => {
    send({
      kind: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    gate?.close();
    process.exit(1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  // The parent is gone: nothing to report to.
  process.on('disconnect', () => {
    gate?.close();
    process.exit(0);
  });
  process.on('message', (message: ToFleetServer) => {
    void handle(message).catch(fail);
  });

  async function handle(message: ToFleetServer): Promise<void> {
    switch (message.kind) {
      case 'start': {
        gate = await startGateServer(
          'roster',
          { url: message.url, keys: { full: message.apiKey } },
          { config: message.config, deferStart: message.database !== undefined },
        );
        if (message.database !== undefined) {
          await startOxmysql(gate.server, { connectionString: message.database });
          await oxmysqlConnected(gate.server);
          gate.startGate();
        }
        void watch(gate);
        return;
      }
      case 'storm': {
        if (!gate) throw new Error('storm before start');
        for (const player of message.players) truth.set(player.license.toLowerCase(), player.departments);
        // Started after the roster, as a script that depends on it would be.
        probe ??= new FullDataProbe([gate.server], (license) => truth.get(license) ?? null);
        await sleep(Math.max(0, message.beginAt - Date.now()));
        const { samples } = await runJoinStorm([gate.server], message.players, {
          spanMs: message.spanMs,
          giveUpMs: message.giveUpMs,
        });
        const admitted = samples.filter((s) => s.admitted && s.id !== null);
        await probe.waitForAll(
          admitted.map((s) => ({ server: 0, id: s.id!, license: s.player.license })),
          20_000,
        );
        const watched = probe;
        const epoch = (at: number | null) => (at === null ? null : performance.timeOrigin + at);
        const out: FleetSample[] = samples.map((s) => ({
          // runJoinStorm keeps the very player objects it was given.
          player: s.player as FleetPlayer,
          connectAt: epoch(s.connectAt)!,
          decidedAt: epoch(s.decidedAt),
          admitted: s.admitted,
          id: s.id,
          completeAt: epoch(watched.completeAt(s.player.license)),
          completeAtJoining: watched.completeAtJoining(s.player.license),
        }));
        send({ kind: 'storm-done', samples: out });
        return;
      }
      case 'drop': {
        const online = gate?.server.playerList() ?? [];
        for (const player of online) gate?.server.dropPlayer(player.id, 'Exiting');
        probe?.reset();
        send({ kind: 'dropped', players: online.length });
        return;
      }
      case 'holds': {
        send({
          kind: 'holds',
          holds: gate !== null && mirrorHolds(gate.server) !== null && !mirrorOff(gate),
        });
        return;
      }
      case 'lines': {
        const lines = gate?.server.log.of('roster') ?? [];
        send({ kind: 'lines', lines: lines.filter((line) => line.includes(message.text)) });
        return;
      }
      case 'join': {
        if (!gate) throw new Error('join before start');
        const connectAt = Date.now();
        const decision = await gate.server.connectPlayer({
          name: message.player.name,
          identifiers: [message.player.license],
        }).decision;
        const decidedAt = Date.now();
        if (decision.admitted) gate.server.dropPlayer(decision.id, 'Exiting');
        send({ kind: 'joined', admitted: decision.admitted, connectAt, decidedAt });
        return;
      }
      case 'status': {
        if (!gate) throw new Error('status before start');
        const before = gate.server.log.of('roster').length;
        gate.server.executeCommand('roster status');
        // The command answers on this tick or, when it asks the database, a few ticks later.
        await sleep(500);
        send({ kind: 'status', lines: gate.server.log.of('roster').slice(before) });
        return;
      }
      case 'stop': {
        gate?.close();
        gate = null;
        send({ kind: 'stopped' });
        process.disconnect?.();
        return;
      }
    }
  }
}

/** The resource said its mirror is off (e.g. the roster grew past cache.maxEntries). */
function mirrorOff(gate: GateServer): boolean {
  return gate.server.log.lines.some((l) => l.includes('the roster mirror is off'));
}

/** Tells the parent once the resource is connected to the roster, and once its mirror is complete. */
async function watch(gate: GateServer): Promise<void> {
  let connected = false;
  for (;;) {
    if (!connected && gate.server.log.lines.some((l) => l.includes('connected to the roster'))) {
      connected = true;
      process.send?.({ kind: 'connected', at: Date.now() } satisfies FromFleetServer);
    }
    const held = mirrorHolds(gate.server);
    if (held !== null) {
      process.send?.({ kind: 'mirror', at: Date.now(), held } satisfies FromFleetServer);
      return;
    }
    await sleep(20);
  }
}
