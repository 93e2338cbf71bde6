import { describe, expect, it } from 'vitest';
import { GAP_REREAD_SPACING_MS, gapReread } from '../../../src/features/audit/gap-reread';
import { Schedule } from '../../../src/kernel/schedule';
import { FakeClock } from '../../http/limiter/fake-clock';

function rig() {
  const clock = new FakeClock();
  const calls = { online: 0, stale: 0 };
  const online = { refreshOnline: async () => ++calls.online };
  const cache = { markAllStale: () => calls.stale++ };
  const schedule = new Schedule(clock);
  return { clock, calls, schedule, gap: gapReread({ online, cache, schedule, clock }) };
}

describe('gapReread', () => {
  it('reads everyone online again at once and makes every cached record a last known answer', () => {
    const r = rig();
    r.gap();
    expect(r.calls).toEqual({ online: 1, stale: 1 });
  });

  it('gaps close together cost one more re-read when the spacing allows, not one each; the cache is made last known at each at once', async () => {
    const r = rig();
    r.gap();
    await r.clock.advance(60_000);
    r.gap();
    // An answer cached between the gaps is not taken as fresh after the second.
    expect(r.calls).toEqual({ online: 1, stale: 2 });
    r.gap();
    expect(r.calls.online).toBe(1);
    await r.clock.advance(GAP_REREAD_SPACING_MS);
    expect(r.calls).toEqual({ online: 2, stale: 3 });
    r.schedule.stop();
  });
});
