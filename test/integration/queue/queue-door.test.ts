/**
 * Queue priority at the door, from the built bundle with ConnectQueue (the Lua stand-in in
 * dev/stand-ins): a decision the join gate has already made reaches ConnectQueue's `OnJoin` at
 * once, and a player who is gone gets no priority and no place in its lists.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LuaResource } from '../../../dev/emulator/lua-resource';
import type { MockMember } from '../../../dev/mock-roster/records';
import { placements, startConnectQueue } from '../../../dev/stand-ins/connect-queue';
import { eventually, framesIn, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

const RULES = [{ department: 'LSPD', minRank: 'Sergeant', power: 50 }];

async function start(config: Record<string, unknown> = {}, aces: [string, string][] = []) {
  const harness = await startHarness({ config: { queue: { priority: RULES }, ...config }, aces });
  h = harness;
  const queue = await startConnectQueue(harness.server);
  await eventually(() => harness.logText().includes('connectqueue found'));
  await eventually(() => harness.logText().includes('connected to the roster'));
  const mirror = (config.mirror as { enabled?: boolean } | undefined)?.enabled !== false;
  if (mirror) await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
  return { h: harness, queue };
}

/** An active member at Sergeant or above in LSPD (rank position 5 or less): power 50. */
function sergeantOf(harness: Harness): MockMember {
  const { data } = harness.mock.data;
  const lspd = data.departments.find((d) => d.shortName === 'LSPD')!;
  const senior = (m: MockMember) =>
    harness.mock.data.assignmentsOf(m.id).some((a) => {
      const rank = a.departmentId === lspd.id && a.rankId ? harness.mock.data.rank(a.rankId) : undefined;
      return rank !== undefined && rank.position <= 5;
    });
  return data.members.find((m) => m.status === 'ACTIVE' && senior(m))!;
}

/**
 * Game time that moves between any two readings, as it may on a real server between two handlers
 * of one event: a test must not pass because a millisecond boundary happened not to fall there.
 */
function clockAlwaysMoving(): void {
  const realNow = Date.now.bind(Date);
  let last = 0;
  vi.spyOn(Date, 'now').mockImplementation(() => {
    last = Math.max(realNow(), last + 1);
    return last;
  });
}

/** The temporary priorities ConnectQueue holds, by id (its own `GetTempPriorityList`). */
async function tempPriorities(queue: LuaResource): Promise<Record<string, { power: number }>> {
  const list = await queue.run('return exports.connectqueue:GetQueueExports():GetTempPriorityList()');
  return Array.isArray(list) ? {} : (list as Record<string, { power: number }>);
}

/** Frames from `from` until ConnectQueue placed or blocked each license, polled frame by frame. */
async function framesUntil(
  harness: Harness,
  queue: LuaResource,
  licenses: readonly string[],
  from: number,
  limit: number,
): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  while (seen.size < licenses.length && harness.server.frames - from <= limit) {
    const placed = new Set((await placements(queue)).map((p) => p.id));
    const blocked = harness.server.log.lines.filter((l) => l.includes('was blocked from joining'));
    for (const license of licenses) {
      if (seen.has(license)) continue;
      if (placed.has(license) || blocked.some((l) => l.includes(license)))
        seen.set(license, harness.server.frames - from);
    }
    await harness.server.nextTick();
  }
  return seen;
}

describe('queue priority at the door', () => {
  it('six staff let in by the bypass ACE are each placed by ConnectQueue within a second', async () => {
    // Five staff the roster does not know and one who is an LSPD Sergeant (power 50 from the mirror).
    const strangers = Array.from({ length: 5 }, (_, i) => `license:${String(i + 1).repeat(40)}`);
    const { h, queue } = await start({ gate: { timeoutSeconds: 10 } });
    const member = sergeantOf(h).gameLicense;
    const staff = [...strangers, member];
    for (const license of staff) h.server.executeCommand(`add_ace identifier.${license} roster.bypass allow`);
    clockAlwaysMoving();
    const from = h.server.frames;
    const joins = staff.map((license, i) =>
      h.server.connectPlayer({ name: `Staff${i}`, identifiers: [license] }),
    );
    const frames = await framesUntil(h, queue, staff, from, framesIn(2));
    // ConnectQueue runs its OnJoin callbacks half a second after the player connects, then places.
    const late = staff.filter(
      (license) => !((frames.get(license) ?? Number.POSITIVE_INFINITY) <= framesIn(1)),
    );
    expect(late).toEqual([]);
    for (const d of await Promise.all(joins.map((j) => j.decision)))
      expect(d).toMatchObject({ admitted: true });
    const powers = Object.fromEntries((await placements(queue)).map((p) => [p.id, p.power]));
    expect(powers).toEqual(
      Object.fromEntries(staff.map((license) => [license, license === member ? 50 : 0])),
    );
  });

  it('a player the gate refuses at once (no license) is refused by ConnectQueue at once, never placed', async () => {
    const { h, queue } = await start({ gate: { timeoutSeconds: 10 } });
    clockAlwaysMoving();
    const address = 'ip:203.0.113.9';
    const from = h.server.frames;
    const join = h.server.connectPlayer({ name: 'NoLicense', identifiers: [address] });
    const decision = await join.decision;
    expect(!decision.admitted && decision.reason).toMatch(/license/i);
    const frames = await framesUntil(h, queue, [address], from, framesIn(2));
    expect(frames.get(address)).toBeLessThanOrEqual(framesIn(1));
    expect(h.server.log.lines.some((l) => l.includes(`[${address}] was blocked from joining`))).toBe(true);
    expect(await placements(queue)).toEqual([]);
  });

  it('a member who closes the game while the roster is answering gets no priority and no place', async () => {
    const { h, queue } = await start({
      mirror: { enabled: false },
      gate: { timeoutSeconds: 30 },
      api: { timeoutMs: 60_000 },
    });
    const sergeant = sergeantOf(h);
    h.mock.faults.hang();
    const join = h.server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] });
    // ConnectQueue asks through OnJoin half a second after the player connects; the roster is
    // still answering then.
    const from = h.server.frames;
    await eventually(() => h.server.frames >= from + framesIn(1.5));
    expect(h.logText()).not.toMatch(/Cop (admitted|refused)/);
    join.abandon();
    h.mock.faults.hang(false);
    await eventually(() => /Cop admitted/.test(h.logText()), 10_000);
    const frames = await framesUntil(h, queue, [sergeant.gameLicense], h.server.frames, framesIn(2));
    expect(frames.has(sergeant.gameLicense)).toBe(true);
    expect(Object.keys(await tempPriorities(queue))).not.toContain(sergeant.gameLicense);
    expect(await placements(queue)).toEqual([]);
  });

  it('a member who quits after the gate admitted them, before ConnectQueue asks, gets no priority and no place', async () => {
    const { h, queue } = await start();
    const sergeant = sergeantOf(h);
    const from = h.server.frames;
    const join = h.server.connectPlayer({ name: 'Cop', identifiers: [sergeant.gameLicense] });
    // The mirror answers at once; ConnectQueue's own deferral keeps the connection open, and it
    // asks through OnJoin only half a second after the player connected.
    await eventually(() => /Cop admitted/.test(h.logText()));
    expect(h.server.frames - from).toBeLessThan(framesIn(0.5));
    h.server.dropPlayer(join.tempId, 'Exiting');
    expect(await join.decision).toMatchObject({ admitted: false });
    const frames = await framesUntil(h, queue, [sergeant.gameLicense], from, framesIn(2));
    expect(frames.has(sergeant.gameLicense)).toBe(true);
    expect(Object.keys(await tempPriorities(queue))).not.toContain(sergeant.gameLicense);
    expect(await placements(queue)).toEqual([]);
  });
});
