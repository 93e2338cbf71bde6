import { startMockRoster } from '../mock-roster/server';
import { type FleetJoins, type FleetOptions, fleetPlayers, joinRound } from './fleet';
import { FleetProcess } from './fleet-process';
import { SERVICE_LATENCY_MS } from './storm-scenario';

/** As for the fleet with the mirror complete, but 'on' here joins right after the servers start. */
export type ColdFleetOptions = FleetOptions;

export interface ColdFleetResult {
  servers: number;
  mirror: 'on' | 'off';
  /** The joins, from the moment every server was connected to the roster. */
  joins: FleetJoins;
  /** With the mirror on: servers whose first read had completed by the end of the joins. */
  mirrorsCompleteAfter: number | null;
}

/**
 * `servers` game servers on one key, each in its own OS process, start together and the players
 * connect as soon as every one of them has verified the key: with the mirror on, every server's
 * first read runs beside the joins, nothing waits for it. Players alternate servers, every fifth
 * a stranger, spread over `spanMs`.
 */
export async function coldFleetScenario(options: ColdFleetOptions): Promise<ColdFleetResult> {
  const mock = await startMockRoster({ port: 0, members: options.members, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const config = options.mirror === 'off' ? { mirror: { enabled: false } } : {};
  const fleet = Array.from({ length: options.servers }, (_, index) => new FleetProcess(index));
  try {
    for (const server of fleet) server.start(mock.url, mock.keys.full, config);
    const readyAt = Math.max(...(await Promise.all(fleet.map((server) => server.connected(60_000)))));
    const players = fleetPlayers(mock, options.servers * options.playersPerServer);
    const joins = await joinRound(fleet, mock, players, options, readyAt, 'right after a cold start');
    const mirrorsCompleteAfter =
      options.mirror === 'on'
        ? (await Promise.all(fleet.map((server) => server.mirrorHolds()))).filter(Boolean).length
        : null;
    return { servers: options.servers, mirror: options.mirror, joins, mirrorsCompleteAfter };
  } catch (error) {
    for (const server of fleet) server.kill();
    throw error;
  } finally {
    await Promise.all(fleet.map((server) => server.stop()));
    await mock.close();
  }
}
