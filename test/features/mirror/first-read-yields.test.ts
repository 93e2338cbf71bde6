import { afterEach, describe, expect, it } from 'vitest';
import { license, outcome } from '../../roster/client/fake-roster';
import { mirrorRig, until } from './fake-community';

type Rig = ReturnType<typeof mirrorRig>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The mirror's own reads: whole lists, no player's license or member id in them. */
function mirrorReads(r: Rig): number[] {
  return r.requests
    .filter((q) => q.path === '/api/v1/members' || q.path === '/api/v1/department-assignments')
    .filter((q) => !q.query.has('gameLicense') && !q.query.has('memberId'))
    .map((q) => q.at);
}

describe('the first read yields to joins', () => {
  it('sends none of its pages while join lookups wait on the limiter, and completes after the storm', async () => {
    rig = mirrorRig({ members: 1000, perMinute: 120 });
    const r = rig;
    await r.catalog.load();
    r.sync.begin();
    // 300 players in 3 s, every fifth a stranger: held and merged, as a storm's lookups are.
    const stormAt = r.clock.now();
    const joins: Promise<unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      joins.push(r.api.lookup(license(i % 5 === 4 ? 50_000 + i : i + 1), 'join'));
      await r.clock.advance(10);
    }
    // The first player's lookup went at once; the rest were held to go out together.
    const waitedFrom = stormAt + 20;
    const { error } = await outcome(r.clock, Promise.all(joins), 10);
    expect(error).toBeUndefined();
    const answeredAt = r.clock.now();
    expect(answeredAt - stormAt).toBeGreaterThan(3_000);
    const read = mirrorReads(r);
    // Some pages went before the storm (the read had begun); none while joins waited.
    expect(read.filter((at) => at < waitedFrom).length).toBeGreaterThan(0);
    expect(read.filter((at) => at >= waitedFrom && at <= answeredAt)).toEqual([]);
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    expect(r.sync.report().held).toBe(1000);
  });
});
