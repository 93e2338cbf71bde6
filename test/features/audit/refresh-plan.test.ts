import { describe, expect, it } from 'vitest';
import type { AuditFeed } from '../../../src/features/audit/audit-feed';
import {
  SAFETY_NET_INTERVALS,
  scheduleAuditFeed,
  scheduleRefresh,
} from '../../../src/features/audit/refresh-plan';
import { Schedule } from '../../../src/kernel/schedule';
import { FakeClock } from '../../http/limiter/fake-clock';

const HOUR = 3_600_000;

function plan(feedHealthy: () => boolean | null) {
  const clock = new FakeClock();
  let passes = 0;
  const online = { refreshOnline: async () => ++passes };
  const schedule = new Schedule(clock, () => 0.5);
  scheduleRefresh({
    schedule,
    clock,
    members: { mirrorAnswering: false },
    online,
    intervalMs: 300_000,
    feed: () => {
      const healthy = feedHealthy();
      return healthy === null ? null : ({ healthy } as AuditFeed);
    },
  });
  return { clock, passes: () => passes, schedule };
}

describe('scheduleRefresh', () => {
  it('without the feed, refreshes every interval as before', async () => {
    const p = plan(() => null);
    await p.clock.advance(HOUR);
    expect(p.passes()).toBe(12);
  });

  it('with the feed working, the full refresh is a safety net every twelve intervals', async () => {
    const p = plan(() => true);
    await p.clock.advance(3 * HOUR);
    expect(p.passes()).toBe(3);
    expect(SAFETY_NET_INTERVALS).toBe(12);
  });

  it('while the feed fails, the refresh runs every interval again', async () => {
    let healthy = true;
    const p = plan(() => healthy);
    await p.clock.advance(HOUR / 2);
    expect(p.passes()).toBe(0);
    healthy = false;
    await p.clock.advance(HOUR / 2);
    expect(p.passes()).toBe(6);
  });
});

describe('scheduleAuditFeed', () => {
  it('anchors at once, then reads every interval, never two reads at a time', async () => {
    const clock = new FakeClock();
    const schedule = new Schedule(clock, () => 0.5);
    let anchors = 0;
    let reads = 0;
    let running = 0;
    let overlapped = false;
    const feed = {
      anchor: async () => ++anchors > 0,
      poll: async () => {
        reads++;
        overlapped ||= running > 0;
        running++;
        await new Promise<void>((resolve) => clock.setTimeout(resolve, 90_000));
        running--;
      },
    } as unknown as AuditFeed;
    scheduleAuditFeed(schedule, feed, 60_000);
    await clock.advance(0);
    expect([anchors, reads]).toEqual([1, 0]);
    await clock.advance(10 * 60_000);
    expect(reads).toBe(4);
    expect(overlapped).toBe(false);
    schedule.stop();
  });
});
