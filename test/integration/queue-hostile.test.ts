/**
 * CONTRACT section 13, queue priority, on a bad day: start orders and restarts of ConnectQueue
 * (the Lua stand-in, faithful to sh_queue.lua where it matters here) and of the roster, a member
 * demoted between two connections.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LuaResource } from '../../dev/emulator/lua-resource';
import { joinCallbacks, placements, startConnectQueue } from '../../dev/stand-ins/connect-queue';
import { eventually, framesIn, type Harness, inFrames, startHarness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RULES = [{ department: 'LSPD', minRank: 'Sergeant', power: 50 }];

describe('queue priority on a bad day', () => {
  it('server.cfg starts ConnectQueue then the roster in one frame: one registration, and joins go on after a roster restart', async () => {
    const harness = await startHarness({ config: { queue: { priority: RULES } }, startResource: false });
    h = harness;
    const { server } = harness;
    await LuaResource.engine();
    await server.nextTick();
    const frame = server.frames;
    const queue = await startConnectQueue(server);
    server.startResource('roster', harness.folder);
    // Both started before a frame ran, as `ensure connectqueue` then `ensure roster` at boot: the
    // roster finds ConnectQueue started, then hears its queued onServerResourceStart.
    expect(server.frames).toBe(frame);
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    await server.nextTick();
    await server.nextTick();
    expect(await joinCallbacks(queue)).toEqual(['roster']);
    // ConnectQueue's onResourceStop drops callbacks walking forward with table.remove: a second
    // registration would stay behind and fail at the next join, leaving the player waiting.
    server.restartResource('roster');
    await eventually(() => harness.logText().includes('the roster mirror caught up'), 10_000);
    await server.nextTick();
    expect(await joinCallbacks(queue)).toEqual(['roster']);
    const sergeant = harness.mock.data.members.find(
      (m) => m.status === 'ACTIVE' && harness.caller.exports.roster!.getPriority!(m.gameLicense) === 50,
    )!;
    const join = server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] });
    const { value, frames } = await inFrames(server, join.decision);
    expect(value).toMatchObject({ admitted: true });
    expect(frames).toBeLessThanOrEqual(framesIn(3));
    expect((await placements(queue)).map((p) => p.power)).toEqual([50]);
  });

  it('a member demoted after joining and back within the old priority’s life is placed with 0, not their old power', async () => {
    const harness = await startHarness({ config: { queue: { priority: RULES } } });
    h = harness;
    const queue = await startConnectQueue(harness.server);
    await eventually(() => harness.logText().includes('connectqueue found'));
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    const roster = harness.caller.exports.roster!;
    const sergeant = harness.mock.data.members.find(
      (m) => m.status === 'ACTIVE' && roster.getPriority!(m.gameLicense) === 50,
    )!;
    const first = await harness.server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] })
      .decision;
    if (!first.admitted) throw new Error(first.reason);
    const lspd = harness.mock.data.data.departments.find((d) => d.shortName === 'LSPD')!;
    const junior = harness.mock.data.data.ranks
      .filter((r) => r.departmentId === lspd.id)
      .sort((a, b) => b.position - a.position)[0]!;
    harness.mock.dashboard.setRank(sergeant.id, junior.id);
    await roster.refreshPlayer!(first.id);
    expect(roster.getPriority!(sergeant.gameLicense)).toBe(0);
    harness.server.dropPlayer(first.id);
    const again = await harness.server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] })
      .decision;
    expect(again).toMatchObject({ admitted: true });
    // ConnectQueue still held the temporary 50 set at the first connection (it lasts two minutes).
    expect((await placements(queue)).map((p) => p.power)).toEqual([50, 0]);
  });
});
