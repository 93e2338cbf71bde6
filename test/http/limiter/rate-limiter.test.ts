import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Lane } from '../../../src/http/limiter/lane';
import { LimiterClosedError } from '../../../src/http/limiter/limiter-closed-error';
import { RateLimiter } from '../../../src/http/limiter/rate-limiter';
import { FakeClock, maxInAnyWindow } from './fake-clock';

const ignore = () => {};

function record(limiter: RateLimiter, clock: FakeClock, lane: Lane, log: Array<{ lane: Lane; at: number }>) {
  return limiter.acquire(lane).then(() => {
    log.push({ lane, at: clock.now() });
  }, ignore);
}

describe('RateLimiter', () => {
  it('never sends more than perMinute in any rolling 60 s window over a long storm', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, perDay: 25_000, clock });
    const log: Array<{ lane: Lane; at: number }> = [];
    for (let i = 0; i < 1000; i++) void record(limiter, clock, 'join', log);
    for (let minute = 0; minute < 12; minute++) await clock.advance(60_000);
    const times = log.map((entry) => entry.at);
    expect(times.length).toBe(1000);
    expect(maxInAnyWindow(times, 60_000)).toBeLessThanOrEqual(120);
    // The quiet minute gives a burst of a quarter of it; the queue behind it is paced.
    expect(times.filter((at) => at === times[0]).length).toBe(30);
    expect(times.filter((at) => at < times[0]! + 1000).length).toBeLessThanOrEqual(32);
  });

  it('grants a burst at once while the recent minute is quiet', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    const times: number[] = [];
    // Ten joins one after another, 0.2 s apart, two requests each: nothing waits.
    for (let join = 0; join < 10; join++) {
      await limiter.acquire('join');
      await limiter.acquire('join');
      times.push(clock.now());
      await clock.advance(200);
    }
    expect(times.map((at) => at - times[0]!)).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800]);
    expect(clock.pendingTimers).toBe(0);
    // After a quiet spell the burst is whole again.
    await clock.advance(60_000);
    const burst: number[] = [];
    for (let i = 0; i < 30; i++) void limiter.acquire('refresh').then(() => burst.push(clock.now()), ignore);
    await clock.advance(0);
    expect(burst.length).toBe(30);
    limiter.close();
  });

  it('paces a queue evenly once the burst is spent, and never stalls on the window', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    const times: number[] = [];
    for (let i = 0; i < 400; i++) void limiter.acquire('join').then(() => times.push(clock.now()), ignore);
    await clock.advance(0);
    expect(times.length).toBe(30);
    await clock.advance(300_000);
    expect(times.length).toBe(400);
    const gaps = times.slice(30).map((at, index) => at - times[29 + index]!);
    // (120 - 30) per minute: one every 667 ms, never a gap much longer.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(660);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(700);
    expect(maxInAnyWindow(times, 60_000)).toBeLessThanOrEqual(120);
  });

  it('keeps the minute and day ceilings under bursts, queues and quiet spells alike', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, perDay: 200, clock });
    const times: number[] = [];
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 50; i++) void limiter.acquire('join').then(() => times.push(clock.now()), ignore);
      await clock.advance(round % 2 === 0 ? 5_000 : 90_000);
    }
    await clock.advance(3_600_000);
    expect(maxInAnyWindow(times, 60_000)).toBeLessThanOrEqual(60);
    expect(times.length).toBe(200);
    expect(limiter.state().remainingToday).toBe(0);
    limiter.close();
  });

  it('holds the rolling-window ceiling for any arrival pattern (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 200 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 180_000 }), fc.integer({ min: 1, max: 80 })), {
          maxLength: 12,
        }),
        async (perMinute, bursts) => {
          const clock = new FakeClock();
          const limiter = new RateLimiter({ perMinute, clock });
          const times: number[] = [];
          const sorted = [...bursts].sort((a, b) => a[0] - b[0]);
          let elapsed = 0;
          for (const [at, count] of sorted) {
            await clock.advance(at - elapsed);
            elapsed = at;
            for (let i = 0; i < count; i++)
              void limiter.acquire('background').then(() => times.push(clock.now()), ignore);
          }
          await clock.advance(600_000);
          limiter.close();
          expect(maxInAnyWindow(times, 60_000)).toBeLessThanOrEqual(perMinute);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('grants a lone request at once when idle', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    let granted = false;
    void limiter.acquire('join').then(() => {
      granted = true;
    });
    await Promise.resolve();
    expect(granted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('serves join before refresh before background', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, burst: 1, clock });
    const log: Array<{ lane: Lane; at: number }> = [];
    await limiter.acquire('background'); // spends the burst
    void record(limiter, clock, 'background', log);
    void record(limiter, clock, 'refresh', log);
    void record(limiter, clock, 'join', log);
    void record(limiter, clock, 'refresh', log);
    await clock.advance(10_000);
    expect(log.map((entry) => entry.lane)).toEqual(['join', 'refresh', 'refresh', 'background']);
  });

  it('puts a job continuation at the front of its lane', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, burst: 1, clock });
    await limiter.acquire('join');
    const order: string[] = [];
    void limiter.acquire('join').then(() => order.push('new'), ignore);
    void limiter.acquire('join', { front: true }).then(() => order.push('continuation'), ignore);
    await clock.advance(5_000);
    expect(order).toEqual(['continuation', 'new']);
  });

  it('takes the lower limit the service announces', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    limiter.observe({ limit: 30 });
    expect(limiter.state().perMinute).toBe(30);
    const times: number[] = [];
    for (let i = 0; i < 100; i++) void limiter.acquire('refresh').then(() => times.push(clock.now()), ignore);
    await clock.advance(300_000);
    expect(maxInAnyWindow(times, 60_000)).toBeLessThanOrEqual(30);
    limiter.observe({ limit: 500 });
    expect(limiter.state().perMinute).toBe(120);
  });

  it("knows the key's last 60 s only from windows the service named, never from guessed ones", async () => {
    const clock = new FakeClock(60_000 * 1000);
    const limiter = new RateLimiter({ perMinute: 120, clock });
    // No X-RateLimit-Reset: each answer alone says nothing of which window it counts in.
    for (let i = 0; i < 10; i++) {
      await limiter.acquire('join');
      limiter.observe({ limit: 120, remaining: 100 - i });
      await clock.advance(1_000);
    }
    expect(limiter.state().keyUsedLastMinute).toBeNull();
    // A named window: 30 spent in the one ending 20 s from now, and our own send after it.
    const named = new RateLimiter({ perMinute: 120, clock });
    await named.acquire('join');
    named.observe({ limit: 120, remaining: 90, resetAtMs: clock.now() + 20_000 });
    await named.acquire('join');
    expect(named.state().keyUsedLastMinute).toBe(31);
  });

  it('sends at most what the service says remains before its reset, spread out', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    await limiter.acquire('join');
    limiter.observe({ limit: 120, remaining: 3, resetAtMs: clock.now() + 30_000 });
    const times: number[] = [];
    for (let i = 0; i < 10; i++) void limiter.acquire('join').then(() => times.push(clock.now()), ignore);
    await clock.advance(29_999);
    expect(times.length).toBe(3);
    const start = clock.now() - 29_999;
    expect(times[0]! - start).toBeGreaterThanOrEqual(7_000);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(7_000);
    await clock.advance(10_000);
    expect(times.length).toBeGreaterThan(3);
    limiter.close();
  });

  it('stops every lane after a 429 until Retry-After has passed', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    const start = clock.now();
    expect(limiter.pauseAfterRateLimited({ retryAfterMs: 20_000 })).toBe(20_000);
    expect(limiter.state().pausedUntil).toBe(start + 20_000);
    const log: Array<{ lane: Lane; at: number }> = [];
    for (const lane of ['background', 'refresh', 'join'] as const) void record(limiter, clock, lane, log);
    await clock.advance(19_999);
    expect(log).toEqual([]);
    expect(limiter.isPaused()).toBe(true);
    await clock.advance(5_000);
    expect(limiter.isPaused()).toBe(false);
    expect(log.map((entry) => entry.lane)).toEqual(['join', 'refresh', 'background']);
    expect(log.every((entry) => entry.at >= start + 20_000)).toBe(true);
  });

  it('follows the headers of a 429 without letting a waiting request go before the pause', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock });
    const start = clock.now();
    // The service's window is spent: a request waits for its reset.
    limiter.observe({ limit: 120, remaining: 0, resetAtMs: start + 10_000 });
    const log: Array<{ lane: Lane; at: number }> = [];
    void record(limiter, clock, 'join', log);
    await clock.advance(1_000);
    expect(log).toEqual([]);
    // A 429 that also says a new window with room began: the pause still comes first.
    limiter.pauseAfterRateLimited({
      limit: 60,
      remaining: 50,
      resetAtMs: start + 61_000,
      retryAfterMs: 5_000,
    });
    expect(limiter.state().perMinute).toBe(60);
    await clock.advance(4_999);
    expect(log).toEqual([]);
    await clock.advance(1);
    expect(log.map((entry) => entry.at)).toEqual([start + 6_000]);
  });

  it('waits for X-RateLimit-Reset, else a default, after a 429 without Retry-After', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 120, clock, defaultPauseMs: 30_000 });
    expect(limiter.pauseAfterRateLimited({ resetAtMs: clock.now() + 12_000 })).toBe(12_000);
    const other = new RateLimiter({ perMinute: 120, clock, defaultPauseMs: 30_000 });
    expect(other.pauseAfterRateLimited({})).toBe(30_000);
  });

  it('keeps the end of the daily budget for joins', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 1000, perDay: 100, burst: 1000, clock });
    const count: Record<Lane, number> = { join: 0, write: 0, refresh: 0, background: 0 };
    for (const lane of ['background', 'refresh', 'join'] as const) {
      for (let i = 0; i < 200; i++) void limiter.acquire(lane).then(() => count[lane]++, ignore);
      await clock.advance(1000);
    }
    expect(count.background).toBe(75);
    expect(count.refresh).toBe(15);
    expect(count.join).toBe(10);
    expect(limiter.state().remainingToday).toBe(0);
    limiter.close();
  });

  it('writes stop at their daily floor: what is kept for joins stays for joins', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 1000, perDay: 100, burst: 1000, clock });
    const count: Record<Lane, number> = { join: 0, write: 0, refresh: 0, background: 0 };
    for (let i = 0; i < 200; i++) void limiter.acquire('write').then(() => count.write++, ignore);
    await clock.advance(1000);
    expect(count.write).toBe(90);
    expect(limiter.state().queued.write).toBe(110);
    // A write waits for the day to roll; a join goes at once on the tenth kept for it.
    expect(limiter.estimateWaitMs('write')).toBeGreaterThan(3_600_000);
    expect(limiter.estimateWaitMs('join')).toBe(0);
    for (let i = 0; i < 20; i++) void limiter.acquire('join').then(() => count.join++, ignore);
    await clock.advance(1000);
    expect(count).toEqual({ join: 10, write: 90, refresh: 0, background: 0 });
    limiter.close();
  });

  it('serves a waiting join before a waiting write, and a write before a refresh', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, burst: 1, clock });
    await limiter.acquire('join');
    const order: Lane[] = [];
    for (const lane of ['background', 'refresh', 'write', 'join'] as const) {
      void limiter.acquire(lane).then(() => order.push(lane), ignore);
    }
    await clock.advance(10_000);
    expect(order).toEqual(['join', 'write', 'refresh', 'background']);
    limiter.close();
  });

  it('reports its state and an estimated wait per lane', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, perDay: 1000, burst: 1, clock });
    await limiter.acquire('join');
    for (let i = 0; i < 4; i++) void limiter.acquire('background').catch(ignore);
    void limiter.acquire('join').catch(ignore);
    const state = limiter.state();
    expect(state.queued).toEqual({ join: 1, write: 0, refresh: 0, background: 4 });
    expect(state.remainingThisMinute).toBe(59);
    expect(state.remainingToday).toBe(999);
    // One token to wait for and one join ahead, at (60 - 1) per minute.
    expect(limiter.estimateWaitMs('join')).toBeLessThanOrEqual(2_100);
    expect(limiter.estimateWaitMs('background')).toBeGreaterThanOrEqual(5_000);
    limiter.close();
  });

  it('drops an aborted waiter and rejects waiters on close', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, burst: 1, clock });
    await limiter.acquire('join');
    const controller = new AbortController();
    const aborted = limiter.acquire('join', { signal: controller.signal });
    const pending = limiter.acquire('refresh');
    controller.abort(new Error('player left'));
    await expect(aborted).rejects.toThrow('player left');
    expect(limiter.state().queued.join).toBe(0);
    limiter.close();
    await expect(pending).rejects.toBeInstanceOf(LimiterClosedError);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('two servers on one key', () => {
  it('share the service window by its headers: never over the limit, and both keep sending', async () => {
    const clock = new FakeClock();
    // The service counts fixed 60 s windows of 120 and says what is left in every answer.
    const windowOf = (at: number) => Math.floor(at / 60_000);
    const counts = new Map<number, number>();
    let refused = 0;
    const servers = [0, 1].map(() => new RateLimiter({ perMinute: 120, clock }));
    const sent = [0, 0];
    const send = async (index: number) => {
      await servers[index]!.acquire('join');
      const window = windowOf(clock.now());
      const used = (counts.get(window) ?? 0) + 1;
      counts.set(window, used);
      if (used > 120) refused++;
      sent[index]!++;
      clock.setTimeout(() => {
        servers[index]!.observe({
          limit: 120,
          remaining: Math.max(0, 120 - (counts.get(window) ?? 0)),
          resetAtMs: (window + 1) * 60_000,
        });
        // Answers take a while: the other server's sends meanwhile are not yet in this count.
      }, 400);
    };
    // A storm on both: far more than the key's minute allows, arriving over 60 s.
    for (let second = 0; second < 60; second++) {
      for (const index of [0, 1]) for (let i = 0; i < 2; i++) void send(index).catch(ignore);
      await clock.advance(1000);
    }
    await clock.advance(120_000);
    expect(refused).toBe(0);
    expect(Math.min(...sent)).toBeGreaterThan(60);
    // Seeing the other server in the headers, each leaves the window's last two alone: two
    // servers taking the last one at once is a 429.
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(118);
    expect(Math.abs(sent[0]! - sent[1]!)).toBeLessThanOrEqual(10);
    for (const limiter of servers) limiter.close();
  });
});
