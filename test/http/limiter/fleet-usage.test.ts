import { describe, expect, it } from 'vitest';
import type { OthersUsage } from '../../../src/http';
import { RateLimiter } from '../../../src/http/limiter/rate-limiter';
import { FakeClock, maxInAnyWindow } from './fake-clock';

/** A request still waiting when its test closes the limiter: rejected, as it should be. */
const closed = (): void => undefined;

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
    const sending = { minute: 20, recent: true };
    let others = { minute: 60, day: 60, servers: [sending, sending, sending] };
    limiter.shareWith(() => others);
    const grants: number[] = [];
    for (let i = 0; i < 10; i++) void limiter.acquire('join').then(() => grants.push(clock.now()), closed);
    await clock.advance(60_000);
    expect(grants).toHaveLength(10);
    // (120 - 4) / 4 = 29 a minute each: one about every 2.07 s.
    const gaps = grants.slice(1).map((at, i) => at - grants[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(Math.floor(60_000 / 29));
    for (const gap of gaps) expect(gap).toBeLessThan(2_500);
    // The others stop sending (their requests still in the minute): no part of its own, a burst
    // goes at once as on a server alone.
    const stopped = { minute: 20, recent: false };
    others = { minute: 60, day: 60, servers: [stopped, stopped, stopped] };
    const burst: number[] = [];
    for (let i = 0; i < 10; i++) void limiter.acquire('join').then(() => burst.push(clock.now()), closed);
    await clock.advance(1);
    expect(burst).toHaveLength(10);
    limiter.close();
  });

  it("others filling the key's last minute: a request waits until theirs leave it, not until a minute turns", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 5));
    const limiter = new RateLimiter({ perMinute: 120, clock });
    let others = { minute: 120, day: 120, servers: [{ minute: 60, recent: true }] };
    limiter.shareWith(() => others);
    let granted: number | null = null;
    void limiter.acquire('join').then(() => (granted = clock.now()), closed);
    await clock.advance(3_000);
    expect(granted).toBeNull();
    // Their oldest requests leave the minute: the next read of the counts shows it.
    others = { minute: 110, day: 120, servers: [{ minute: 110, recent: true }] };
    await clock.advance(2_000);
    expect(granted).not.toBeNull();
    limiter.close();
  });

  it('requests sent close together before its part shrank stretch its spacing: never more than its part in a minute, never a stall', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 10));
    const limiter = new RateLimiter({ perMinute: 120, clock });
    let others: OthersUsage = { minute: 0, day: 0, servers: [] };
    limiter.shareWith(() => others);
    const grants: number[] = [];
    const ask = (count: number) => {
      for (let i = 0; i < count; i++)
        void limiter.acquire('join').then(() => grants.push(clock.now()), closed);
    };
    // Alone on the key: a burst goes at once.
    ask(8);
    await clock.advance(1);
    expect(grants).toHaveLength(8);
    // Three others start sending: a part of 29 a minute, 8 of it spent already.
    const sending = { minute: 5, recent: true };
    others = { minute: 15, day: 15, servers: [sending, sending, sending] };
    ask(60);
    await clock.advance(120_000);
    expect(maxInAnyWindow(grants, 60_000)).toBeLessThanOrEqual(29);
    const after = grants.slice(8);
    const gaps = after.slice(1).map((at, i) => at - after[i]!);
    expect(Math.max(...gaps)).toBeLessThan(3_000);
    limiter.close();
  });

  it('a server that stopped sending keeps only its requests still in the minute; the busy ones share the rest', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 10));
    const limiter = new RateLimiter({ perMinute: 120, clock });
    limiter.shareWith(() => ({
      minute: 70,
      day: 70,
      servers: [
        { minute: 30, recent: true },
        { minute: 40, recent: false },
      ],
    }));
    const grants: number[] = [];
    for (let i = 0; i < 10; i++) void limiter.acquire('join').then(() => grants.push(clock.now()), closed);
    await clock.advance(30_000);
    // (120 - 3 kept for the counts' lag - 40 still the stopped one's) / 2 sending = 38 a minute.
    const gaps = grants.slice(1).map((at, i) => at - grants[i]!);
    expect(gaps.length).toBeGreaterThan(5);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(Math.floor(60_000 / 38));
    for (const gap of gaps) expect(gap).toBeLessThan(60_000 / 37);
    limiter.close();
  });
});
