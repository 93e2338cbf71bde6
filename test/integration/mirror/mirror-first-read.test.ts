import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** When the mock saw each of the mirror's own reads: whole lists, no player's license or member id. */
function mirrorReads(harness: Harness): number[] {
  return harness.mock.counters.log
    .filter((e) => e.path === '/api/v1/members' || e.path === '/api/v1/department-assignments')
    .filter((e) => {
      const query = new URLSearchParams(e.query);
      return !query.has('gameLicense') && !query.has('memberId');
    })
    .map((e) => e.time);
}

describe('the first read yields to joins', () => {
  it("a join storm right after start: the mirror's pages stop while joins wait, and every join is decided", async () => {
    // 3,000 members: the first read (some 65 pages) is far from done when the storm comes.
    h = await startHarness({ members: 3_000 });
    const harness = h;
    await eventually(() => harness.logText().includes('connected to the roster'));
    await eventually(() => mirrorReads(harness).length > 0);
    const players = Array.from({ length: 300 }, (_, i) => {
      const member = harness.mock.data.members[i * 7]!;
      return i % 5 === 4 ? harness.mock.data.nonMemberLicense(i) : member.gameLicense;
    });
    // When each join began waiting and when it was decided, on the test's clock (the mock's too).
    const waits: { from: number; to: number }[] = [];
    const decisions: Promise<{ admitted: boolean }>[] = [];
    for (const [i, license] of players.entries()) {
      const wait = { from: Date.now(), to: Number.POSITIVE_INFINITY };
      waits.push(wait);
      decisions.push(
        harness.server
          .connectPlayer({
            name: `P${i}`,
            identifiers: [license, `ip:10.0.${i >> 8}.${i & 255}`],
          })
          .decision.then((decision) => {
            wait.to = Date.now();
            return decision;
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const decided = await Promise.all(decisions);
    expect(decided).toHaveLength(300);
    expect(decided.filter((d) => d.admitted).length).toBeGreaterThan(0);
    // No page of the mirror's goes while a join waits: the first player's lookup goes at once, the
    // next ones wait to be sent together. A page sent just before a join came may land a moment
    // after (200 ms), one at most. On a busy machine the storm may have lulls with no join waiting;
    // a page in one of them is the read going on as it should.
    const during = mirrorReads(harness).filter((at) => waits.some((w) => w.from + 200 < at && at < w.to));
    expect(during.length).toBeLessThanOrEqual(1);
  });
});
