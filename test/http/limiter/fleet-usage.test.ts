import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/http/limiter/rate-limiter';
import { FakeClock } from './fake-clock';

/** How many of `count` requests in `lane` the limiter grants within `ms`. */
async function granted(
  limiter: RateLimiter,
  clock: FakeClock,
  count: number,
  ms: number,
  lane = 'background' as const,
) {
  let done = 0;
  for (let i = 0; i < count; i++)
    void limiter.acquire(lane).then(
      () => done++,
      () => undefined,
    );
  await clock.advance(ms);
  return done;
}

describe('the other servers sharing their counts', () => {
  it("keeps the key's minute for all of them: what the others spent is not this server's to send", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limiter = new RateLimiter({ perMinute: 20, burst: 20, clock });
    limiter.shareWith(() => ({ minute: 15, day: 15 }));
    expect(await granted(limiter, clock, 10, 30_000)).toBe(5);
    expect(limiter.state().keyUsedLastMinute).toBe(20);
    expect(limiter.state().remainingThisMinute).toBe(0);
    limiter.close();
  });

  it('without shared counts each server keeps its own minute as before', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limiter = new RateLimiter({ perMinute: 20, burst: 20, clock });
    limiter.shareWith(() => null);
    expect(await granted(limiter, clock, 10, 1_000)).toBe(10);
    limiter.close();
  });

  it("keeps the key's day for all of them, joins included", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limiter = new RateLimiter({ perMinute: 1_000, perDay: 100, burst: 100, clock });
    limiter.shareWith(() => ({ minute: 0, day: 97 }));
    expect(await granted(limiter, clock, 10, 1_000, 'join' as never)).toBe(3);
    limiter.close();
  });

  it('while three others send, paces its queue evenly at its part of the minute, not in a burst', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 10));
    const limiter = new RateLimiter({ perMinute: 120, clock });
    limiter.shareWith(() => ({ minute: 60, day: 60, servers: [20, 20, 20] }));
    const grants: number[] = [];
    for (let i = 0; i < 10; i++) void limiter.acquire('join').then(() => grants.push(clock.now()));
    await clock.advance(60_000);
    expect(grants).toHaveLength(10);
    // (120 - 4) / 4 = 29 a minute each: one about every 2.07 s.
    const gaps = grants.slice(1).map((at, i) => at - grants[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(Math.floor(60_000 / 29));
    for (const gap of gaps) expect(gap).toBeLessThan(2_500);
    limiter.close();
  });

  it("others filling the key's last minute: a request waits until theirs leave it, not until a minute turns", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 5));
    const limiter = new RateLimiter({ perMinute: 120, clock });
    let others = { minute: 120, day: 120, servers: [60, 60] };
    limiter.shareWith(() => others);
    let granted: number | null = null;
    void limiter.acquire('join').then(() => (granted = clock.now()));
    await clock.advance(3_000);
    expect(granted).toBeNull();
    // Their oldest requests leave the minute: the next read of the counts shows it.
    others = { minute: 110, day: 120, servers: [55, 55] };
    await clock.advance(2_000);
    expect(granted).not.toBeNull();
    limiter.close();
  });
});
