/**
 * Queue priority on a bad day: start orders and restarts of ConnectQueue
 * (the Lua stand-in, faithful to sh_queue.lua where it matters here) and of the roster, a member
 * demoted between two connections.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LuaResource } from '../../../dev/emulator/lua-resource';
import { joinCallbacks, placements, startConnectQueue } from '../../../dev/stand-ins/connect-queue';
import {
  eventually,
  framesIn,
  type Harness,
  inFrames,
  startHarness,
  strangerLicense,
  withinFrames,
} from '../harness';

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

  it('lookupPriority still waiting for a hanging service when the roster stops is answered then, not never', async () => {
    const harness = await startHarness({
      config: { queue: { priority: RULES }, gate: { timeoutSeconds: 30 }, api: { timeoutMs: 60_000 } },
    });
    h = harness;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    // A queue's predicate asking about a license the roster must look up (a stranger's).
    const asker = await harness.server.startLuaCode(
      'asker',
      "answer = nil exports('Answer', function() return answer end)",
    );
    harness.mock.faults.hang();
    void asker.run(
      `CreateThread(function() answer = 'power ' .. tostring(exports.roster:lookupPriority('${strangerLicense}')) end)`,
    );
    const answer = () => asker.run('return exports.asker:Answer()');
    const from = harness.server.frames;
    await eventually(() => harness.server.frames >= from + framesIn(1));
    expect(await answer()).toBeUndefined();
    // Nothing of the roster runs after its stop: an answer not given then never comes, and that
    // Lua thread (a player's deferral in its resource) would wait for ever.
    harness.server.stopResource('roster');
    const stoppedAt = harness.server.frames;
    while ((await answer()) === undefined && harness.server.frames < stoppedAt + framesIn(5))
      await harness.server.nextTick();
    expect(await answer()).toBe('power 0');
    expect(harness.server.frames - stoppedAt).toBeLessThanOrEqual(2);
    harness.mock.faults.hang(false);
  });

  it('getPriority and lookupPriority answer 0 to anything that is not a player or a license', async () => {
    const harness = await startHarness({ config: { queue: { priority: [{ power: 10 }] } } });
    h = harness;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    const roster = harness.caller.exports.roster!;
    const garbage = [undefined, null, -1, 0, 1.5, Number.NaN, 1e12, '', '-3', 'license:xyz', {}, [], true];
    for (const value of garbage) {
      expect(roster.getPriority!(value)).toBe(0);
      expect(await roster.lookupPriority!(value)).toBe(0);
    }
    expect(roster.getPriority!()).toBe(0);
    expect(await roster.lookupPriority!()).toBe(0);
  });

  it('ConnectQueue restarted (stopped, started again in the same frame): registered with the new one once', async () => {
    const harness = await startHarness({ config: { queue: { priority: RULES } } });
    h = harness;
    const { server } = harness;
    await startConnectQueue(server);
    // Every wait below is bounded in server frames, which a busy machine runs late, not in time.
    await withinFrames(server, framesIn(10), () => harness.logText().includes('connectqueue found'));
    await withinFrames(server, framesIn(10), () =>
      /the roster mirror holds \d+ members/.test(harness.logText()),
    );
    await LuaResource.engine();
    // Stopped and started again within one frame, each try just after a frame ran. Loading the Lua
    // takes the host a moment; on a busy machine a frame can run meanwhile, which is not the case
    // under test: restart again.
    let queue: Awaited<ReturnType<typeof startConnectQueue>>;
    for (let restarts = 1; ; restarts++) {
      await server.nextTick();
      const frame = server.frames;
      server.stopResource('connectqueue');
      queue = await startConnectQueue(server);
      if (server.frames === frame) break;
      expect(restarts).toBeLessThan(50);
    }
    // The new queue's start reaches the roster on the next frame, and it registers then.
    await withinFrames(server, framesIn(1), async () => (await joinCallbacks(queue)).length > 0);
    await server.nextTick();
    expect(await joinCallbacks(queue)).toEqual(['roster']);
    // ConnectQueue's onResourceStop drops callbacks walking forward with table.remove: a second
    // registration would stay behind and fail at the next join, leaving the player waiting.
    server.restartResource('roster');
    await withinFrames(server, framesIn(10), () => harness.logText().includes('the roster mirror caught up'));
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

  it('the roster stops while ConnectQueue waits in its OnJoin: ConnectQueue hears the refusal at once', async () => {
    const harness = await startHarness({
      config: { queue: { priority: RULES }, gate: { timeoutSeconds: 30 }, api: { timeoutMs: 60_000 } },
    });
    h = harness;
    const queue = await startConnectQueue(harness.server);
    await eventually(() => harness.logText().includes('connectqueue found'));
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    harness.mock.faults.hang();
    const join = harness.server.connectPlayer({ name: 'Stranger', identifiers: [strangerLicense] });
    // ConnectQueue runs the OnJoin callbacks half a second after the player connects.
    const from = harness.server.frames;
    await eventually(() => harness.server.frames >= from + framesIn(1.5));
    harness.server.stopResource('roster');
    const { value } = await inFrames(harness.server, join.decision);
    expect(!value.admitted && value.reason).toMatch(/unavailable right now/);
    const stoppedAt = harness.server.frames;
    const blocked = () =>
      harness.server.log.lines.some((l) => l.includes('Stranger[') && l.includes('was blocked'));
    while (!blocked() && harness.server.frames < stoppedAt + framesIn(5)) await harness.server.nextTick();
    expect(blocked()).toBe(true);
    expect(harness.server.frames - stoppedAt).toBeLessThanOrEqual(2);
    expect(await placements(queue)).toEqual([]);
    harness.mock.faults.hang(false);
  });
});
