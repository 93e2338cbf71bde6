/**
 * Queue priority, from the built bundle: ConnectQueue (the Lua stand-in in
 * dev/stand-ins, its own resource) places each player with the priority it reads at that moment;
 * the roster sets it through ConnectQueue's `OnJoin`, from the join gate's own decision.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LuaResource } from '../../../dev/emulator/lua-resource';
import type { MockMember } from '../../../dev/mock-roster/records';
import { placements, startConnectQueue } from '../../../dev/stand-ins/connect-queue';
import { eventually, framesIn, type Harness, inFrames, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RULES = [
  { department: 'LSPD', minRank: 'Sergeant', power: 50 },
  { department: 'SAFR', power: 40 },
  { power: 10 },
];
const bypassing = `license:${'e'.repeat(40)}`;

/** Position of the member's rank in a department (1 = most senior), or null when not in it. */
function rankIn(harness: Harness, member: MockMember, shortName: string): number | null {
  const { data } = harness.mock.data;
  const department = data.departments.find((d) => d.shortName === shortName)!;
  const held = harness.mock.data.assignmentsOf(member.id).find((a) => a.departmentId === department.id);
  if (!held) return null;
  return held.rankId ? (harness.mock.data.rank(held.rankId)?.position ?? null) : Number.POSITIVE_INFINITY;
}

function pick(harness: Harness) {
  const active = harness.mock.data.members.filter((m) => m.status === 'ACTIVE');
  const sergeantPlus = (m: MockMember) => (rankIn(harness, m, 'LSPD') ?? 99) <= 5;
  return {
    sergeant: active.find(sergeantPlus)!,
    medic: active.find((m) => !sergeantPlus(m) && rankIn(harness, m, 'SAFR') !== null)!,
    plain: active.find((m) => !sergeantPlus(m) && rankIn(harness, m, 'SAFR') === null)!,
  };
}

async function start(config: Record<string, unknown> = {}): Promise<{ h: Harness; queue: LuaResource }> {
  const harness = await startHarness({
    config: { queue: { priority: RULES }, ...config },
    aces: [[`identifier.${bypassing}`, 'roster.bypass']],
  });
  h = harness;
  const queue = await startConnectQueue(harness.server);
  await eventually(() => harness.logText().includes('connected to the roster'));
  await eventually(() => harness.logText().includes('connectqueue found'));
  await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
  return { h: harness, queue };
}

describe('queue priority with ConnectQueue', () => {
  it('ConnectQueue reads each player’s power at enqueue: Sergeant+ LSPD 50, SAFR 40, plain member 10, stranger 0', async () => {
    const { h, queue } = await start();
    const { sergeant, medic, plain } = pick(h);
    const joins = [
      ['Sergeant', sergeant.gameLicense],
      ['Medic', medic.gameLicense],
      ['Plain', plain.gameLicense],
      ['Stranger', bypassing],
    ].map(([name, license]) => h.server.connectPlayer({ name: name!, identifiers: [license!] }));
    const decisions = await Promise.all(joins.map((j) => j.decision));
    for (const d of decisions) expect(d).toMatchObject({ admitted: true });
    const placed = new Map((await placements(queue)).map((p) => [p.id, p.power]));
    expect(Object.fromEntries(placed)).toEqual({
      [sergeant.gameLicense]: 50,
      [medic.gameLicense]: 40,
      [plain.gameLicense]: 10,
      [bypassing]: 0,
    });
    // The same powers from the exports, by license and (once joined) by server id.
    const exports = h.caller.exports.roster!;
    expect(exports.getPriority!(sergeant.gameLicense)).toBe(50);
    expect(exports.getPriority!(medic.gameLicense.toUpperCase())).toBe(40);
    expect(await exports.lookupPriority!(plain.gameLicense)).toBe(10);
    expect(await exports.lookupPriority!(strangerLicense)).toBe(0);
    const sergeantId = (decisions[0] as { id: number }).id;
    expect(exports.getPriority!(sergeantId)).toBe(50);
    expect(exports.getPriority!('nonsense')).toBe(0);
  });

  it('a player the gate refuses is refused inside ConnectQueue’s OnJoin, never placed', async () => {
    const { h, queue } = await start();
    const suspended = h.mock.data.suspendedMember();
    const refusedJoins = [strangerLicense, suspended.gameLicense].map((license) =>
      h.server.connectPlayer({ name: 'Refused', identifiers: [license] }),
    );
    const { value: decisions, frames } = await inFrames(
      h.server,
      Promise.all(refusedJoins.map((j) => j.decision)),
    );
    expect(!decisions[0]!.admitted && decisions[0]!.reason).toMatch(/not on the San Andreas Roleplay roster/);
    expect(!decisions[1]!.admitted && decisions[1]!.reason).toMatch(/roster status is SUSPENDED/);
    // The gate's done(reason) ends the connection at once (ClientDeferral.cpp: the first rejection).
    expect(frames).toBeLessThanOrEqual(framesIn(1));
    // ConnectQueue's own deferral goes on: its OnJoin hears the same refusal, so the player never
    // takes a place in its queue (which would notice the connection gone only when it polls).
    await eventually(
      () => h.server.log.lines.filter((l) => l.includes('was blocked from joining')).length === 2,
    );
    expect(h.server.log.lines.join('\n')).toMatch(/blocked from joining; Reason: You are not on the San/);
    expect(await placements(queue)).toEqual([]);
  });

  it('the join deadline holds when the service hangs: the gate decides, ConnectQueue follows', async () => {
    const { h, queue } = await start({ gate: { timeoutSeconds: 3 }, api: { timeoutMs: 60_000 } });
    const { sergeant } = pick(h);
    h.mock.faults.hang();
    const stranger = h.server.connectPlayer({ name: 'Stranger', identifiers: [strangerLicense] });
    const { value: decision, frames } = await inFrames(h.server, stranger.decision);
    expect(!decision.admitted && decision.reason).toMatch(/unavailable right now/);
    expect(frames).toBeLessThanOrEqual(framesIn(3 + 1));
    expect(await placements(queue)).toEqual([]);
    // The roster mirror answers a member at once, hanging service or not: placed with their power.
    const cop = h.server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] });
    const { value: admitted, frames: copFrames } = await inFrames(h.server, cop.decision);
    expect(admitted).toMatchObject({ admitted: true });
    expect(copFrames).toBeLessThanOrEqual(framesIn(3 + 1));
    expect((await placements(queue)).map((p) => [p.id, p.power])).toEqual([[sergeant.gameLicense, 50]]);
  });

  it('rules naming an unknown department or rank are named once at start and left out', async () => {
    const { h } = await start({
      queue: {
        priority: [
          { department: 'NOPE', power: 90 },
          { department: 'LSPD', minRank: 'Grand Marshal', power: 80 },
          { power: 10 },
        ],
      },
    });
    await eventually(() => h.logText().includes('no department "NOPE"'));
    expect(h.logText()).toMatch(/queue\.priority\[1\].*LSPD has no rank "Grand Marshal"; left out/);
    const { sergeant } = pick(h);
    expect(await h.caller.exports.roster!.lookupPriority!(sergeant.gameLicense)).toBe(10);
    h.server.executeCommand('roster doctor');
    await eventually(() => h.logText().includes('connectqueue: running; priority is set through its OnJoin'));
    await eventually(() => h.logText().includes('every admitted member: power 10 (0 online members)'));
    expect(h.logText().match(/no department "NOPE"/g)?.length).toBe(2); // at start, then in doctor
  });

  it("Qbox-style predicate: lookupPriority(source) inside the connecting player's own deferral", async () => {
    const { h } = await start();
    const { sergeant, plain } = pick(h);
    // What qbx_core's queue does with a sub-queue predicate: run once, in playerConnecting's thread.
    const qbx = await h.server.startLuaCode(
      'qbxqueue',
      `seen = {}
      AddEventHandler('playerConnecting', function(_, _, deferrals)
        local src = source
        deferrals.defer()
        local power = exports.roster:lookupPriority(src)
        seen[#seen + 1] = GetPlayerIdentifiers(src)[1] .. '=' .. tostring(power)
        deferrals.done()
      end)
      exports('Seen', function() return seen end)`,
    );
    const joins = [sergeant, plain].map((m) =>
      h.server.connectPlayer({ name: m.displayName, identifiers: [m.gameLicense] }),
    );
    for (const d of await Promise.all(joins.map((j) => j.decision)))
      expect(d).toMatchObject({ admitted: true });
    const seen = (await qbx.run('return exports.qbxqueue:Seen()')) as string[];
    expect([...seen].sort()).toEqual([`${sergeant.gameLicense}=50`, `${plain.gameLicense}=10`].sort());
  });

  it('after the roster restarts, ConnectQueue holds only the new registration: joins still get their power', async () => {
    const { h, queue } = await start();
    const { sergeant } = pick(h);
    h.server.restartResource('roster');
    await eventually(() => h.logText().match(/connectqueue found/g)?.length === 2);
    // Ready to decide again (from the mirror once it caught up, else by a lookup: the same answer).
    await eventually(() => (h.logText().match(/connected to the roster/g)?.length ?? 0) >= 2, 20_000);
    // ConnectQueue dropped the stopped instance's callback by the resource name passed with it;
    // a callback left behind would fail at the next join and leave the player waiting for ever.
    const d = await h.server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] }).decision;
    expect(d).toMatchObject({ admitted: true });
    expect((await placements(queue)).map((p) => [p.id, p.power])).toEqual([[sergeant.gameLicense, 50]]);
  });
});
