/**
 * "Rank changes never spend the budget that joins need": a supervisor flapping
 * ranks on a key with a small day, and a member joining while they go on. From the built bundle,
 * in the emulator, against the mock roster over loopback; time is faked (and follows real time, so
 * the mock's real I/O is answered).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, framesIn, type Harness, inFrames, startHarness } from '../harness';

type Result = { ok: true } | { ok: false; reason: string };

/**
 * A small day: 40 requests, as the owner set `rateLimit.perDay` (e.g. this server's share of a key
 * several servers use). The service's own count stays far from its ceiling, so what is shown is
 * the resource's own day budget and its lanes.
 */
const PER_DAY = 40;
const PATCH = 'PATCH /api/v1/department-assignments/:id';

let h: Harness | undefined;
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.useRealTimers();
});

async function join(member: MockMember): Promise<number> {
  const decision = await h!.server.connectPlayer({
    name: member.displayName,
    identifiers: [member.gameLicense],
  }).decision;
  if (!decision.admitted) throw new Error(`${member.displayName} refused: ${decision.reason}`);
  await eventually(() => h!.caller.exports.roster!.getRank!(decision.id, 'LSPD') !== null);
  return decision.id;
}

it('a supervisor flapping ranks is stopped at the write floor; a member joining meanwhile is admitted', async () => {
  h = await startHarness({
    config: {
      rateLimit: { perMinute: 120, perDay: PER_DAY },
      refresh: { intervalSeconds: 3600, auditSeconds: 0 },
      mirror: { enabled: false },
    },
  });
  const mock = h.mock;
  const add = (name: string, position: number) =>
    mock.data.addMember({ displayName: name, departmentId: 'dept_lspd', rankId: `rank_lspd_${position}` });
  const supervisor = await join(add('Cara Captain', 3));
  const officers: number[] = [];
  for (const name of ['Otto', 'Olga', 'Oren', 'Ola']) officers.push(await join(add(`${name} Officer`, 7)));
  const newcomer = add('Nina Newcomer', 7);
  const setRank = (target: number, rank: string) =>
    h!.caller.exports.roster!.setRank!(target, 'LSPD', rank, supervisor) as Promise<Result>;

  // Promote, demote, promote… across four officers, every 3 s (one actor's pace), until refused.
  let made = 0;
  let refusal = '';
  for (let i = 0; i < 40 && refusal === ''; i++) {
    const result = await setRank(
      officers[i % 4]!,
      Math.floor(i / 4) % 2 === 0 ? 'Senior Officer' : 'Officer',
    );
    if (result.ok) made++;
    else refusal = result.reason;
    await vi.advanceTimersByTimeAsync(3_000);
  }
  const budgetRefusal =
    /^The roster's requests are kept for joining players right now; try again in about \d+ h( \d+ min)?\.$/;
  expect(refusal).toMatch(budgetRefusal);
  const keyId = mock.keyId('full');
  const spent = () => mock.counters.log.filter((e) => e.keyId === keyId).length;
  // Writes stopped at their floor: a tenth of the day is still there, for joins only.
  expect(spent()).toBeLessThanOrEqual(PER_DAY - PER_DAY / 10);
  expect(mock.counters.log.filter((e) => e.endpoint === PATCH)).toHaveLength(made);

  // At the same time: the supervisor tries again and a member joins.
  const again = setRank(officers[0]!, 'Sergeant');
  const joining = h.server.connectPlayer({ name: newcomer.displayName, identifiers: [newcomer.gameLicense] });
  const [tried, { value: decision, frames }] = await Promise.all([
    again,
    inFrames(h.server, joining.decision),
  ]);

  expect(decision.admitted).toBe(true);
  // Decided on the roster's answer at once, not after waiting out the gate's deadline (15 s).
  expect(frames).toBeLessThanOrEqual(framesIn(2));
  expect(tried).toEqual({ ok: false, reason: expect.stringMatching(budgetRefusal) });
  expect(spent()).toBeLessThanOrEqual(PER_DAY);
  expect(mock.counters.rateLimited).toBe(0);
  // The numbers of the table in docs/rank-changes.md.
  console.info(
    `rank-budget: ${made} changes made, ${mock.counters.log.filter((e) => e.endpoint === PATCH).length} PATCHes, ${spent()} of ${PER_DAY} requests spent; supervisor told: ${(tried as { reason: string }).reason}`,
  );
});
