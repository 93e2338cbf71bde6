/**
 * CONTRACT section 13, queue priority at the door, from the built bundle with ConnectQueue (the
 * Lua stand-in in dev/stand-ins): a decision the join gate has already made reaches ConnectQueue's
 * `OnJoin` at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LuaResource } from '../../dev/emulator/lua-resource';
import type { MockMember } from '../../dev/mock-roster/records';
import { placements, startConnectQueue } from '../../dev/stand-ins/connect-queue';
import { eventually, framesIn, type Harness, startHarness } from './harness';

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
});
