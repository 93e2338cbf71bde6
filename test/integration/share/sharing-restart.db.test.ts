import { describe, expect, it } from 'vitest';
import { eventually, startHarness } from '../harness';
import { type FleetServer, fleetServer, joins } from './fleet';
import { closeAfterEach, config, twoServers } from './two-servers';

const keep = closeAfterEach();

/** What a server asked the service, as `METHOD path`. */
const asked = (server: FleetServer) => server.seen.map((r) => `${r.method} ${r.path}`);

describe('a server starting while the shared roster is current', () => {
  it('asks the service nothing: the key, departments and ranks come from the database with the roster', async () => {
    const { h, events } = await twoServers(keep);
    const active = h.mock.data.members.filter((m) => m.status === 'ACTIVE');
    // The first follower started after the reader had checked the key and read the catalog.
    expect(asked(events)).toEqual([]);
    expect(await joins(events.server, active[0]!.gameLicense, 'First')).toBe(true);

    await events.close();
    const again = await fleetServer(h, config('events'));
    keep(h, again);
    await eventually(() => again.logText().includes("holds the shared roster's"), 20_000);
    await eventually(() => /connected to the roster of "/.test(again.logText()), 10_000);
    // Departments and ranks are known: a rank check answers from them.
    expect(await joins(again.server, active[1]!.gameLicense, 'Second')).toBe(true);
    expect(asked(again)).toEqual([]);
  }, 60_000);
});

describe('servers starting together on an empty database', () => {
  it('check the key and read departments, ranks and the description once between them', async () => {
    const main = await startHarness({
      database: true,
      members: 300,
      config: config('main'),
      startResource: false,
    });
    keep(main);
    const events = await fleetServer(main, config('events'));
    keep(main, events);
    main.server.startResource('roster', main.folder);
    for (const server of [main.logText, events.logText])
      await eventually(() => /connected to the roster of "/.test(server()), 20_000);
    await eventually(() => /the roster mirror holds .*\d+ members/.test(events.logText()), 30_000);
    const paths = main.mock.counters.log.map((entry) => entry.path);
    const times = (path: string) => paths.filter((p) => p === path).length;
    expect(times('/api/v1/whoami')).toBe(1);
    expect(times('/api/v1/departments')).toBe(1);
    expect(times('/api/v1/ranks')).toBe(1);
    expect(times('/api/v1/openapi.json')).toBe(1);
  }, 60_000);
});
