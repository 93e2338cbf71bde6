import { describe, expect, it } from 'vitest';
import { isDayWindow } from '../../../src/http/limiter/day-window';
import type { Lane } from '../../../src/http/limiter/lane';
import { type RateLimitInfo, readRateLimitHeaders } from '../../../src/http/limiter/rate-limit-headers';
import { RateLimiter } from '../../../src/http/limiter/rate-limiter';
import { decodeDay, encodeDay, keyTag } from '../../../src/http/limiter/saved-day';
import { FakeClock } from './fake-clock';

const ignore = () => {};
const HOUR_MS = 3_600_000;

/** The service's fixed minute windows of 120, counting every server on the key. */
class MinuteWindows {
  private readonly used = new Map<number, number>();

  constructor(private readonly clock: FakeClock) {}

  /** One request of any server on the key; what its answer says. */
  send(): RateLimitInfo {
    const now = this.clock.now();
    const window = Math.floor(now / 60_000);
    const used = (this.used.get(window) ?? 0) + 1;
    this.used.set(window, used);
    const reset = (window + 1) * 60_000;
    return { limit: 120, remaining: Math.max(0, 120 - used), resetAtMs: reset, resetInMs: reset - now };
  }
}

/** Another server on the key: `perMinute` requests a minute, evenly, from `offsetMs` into each minute. */
function otherServer(clock: FakeClock, windows: MinuteWindows, perMinute: number, offsetMs: number): void {
  const every = 60_000 / perMinute;
  const tick = () => {
    windows.send();
    clock.setTimeout(tick, every);
  };
  clock.setTimeout(tick, offsetMs);
}

/** This server: a request in `lane` every `everyMs` (from `offsetMs`), each answer followed. */
function ourRequests(
  clock: FakeClock,
  windows: MinuteWindows,
  limiter: RateLimiter,
  lane: Lane,
  everyMs: number,
  offsetMs: number,
): number[] {
  const granted: number[] = [];
  const tick = () => {
    void limiter.acquire(lane).then(() => {
      granted.push(clock.now());
      limiter.observe(windows.send());
    }, ignore);
    clock.setTimeout(tick, everyMs);
  };
  clock.setTimeout(tick, offsetMs);
  return granted;
}

async function acquireMany(
  limiter: RateLimiter,
  clock: FakeClock,
  lane: Lane,
  count: number,
): Promise<number> {
  let granted = 0;
  for (let i = 0; i < count; i++) void limiter.acquire(lane).then(() => granted++, ignore);
  await clock.advance(1000);
  return granted;
}

describe('the key’s day, told by the service', () => {
  it('background and refreshes stop at their reserve of the service’s day; joins take what is left', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const limiter = new RateLimiter({ perMinute: 1000, perDay: 25_000, burst: 1000, clock });
    await limiter.acquire('join');
    // Other servers on the key spent all but 300 of its day of 1,000, which resets at midnight.
    const midnight = Date.UTC(2025, 0, 2);
    limiter.observe({
      limit: 1000,
      remaining: 300,
      resetAtMs: clock.now() + 300_000,
      resetInMs: midnight - clock.now(),
    });
    const granted = { background: 0, refresh: 0, join: 0 };
    for (const lane of ['background', 'refresh', 'join'] as const)
      granted[lane] = await acquireMany(limiter, clock, lane, 400);
    // A quarter of the day is kept from background work, a tenth from refreshes.
    expect(granted).toEqual({ background: 50, refresh: 150, join: 100 });
    expect(limiter.state().remainingToday).toBe(0);
    expect(limiter.state().perDay).toBe(1000);
    // On the service's word alone, for five minutes (`rateLimit.maxWaitSeconds`): then one join
    // asks again, and its answer holds the rest as long again.
    const waiting = limiter.state().queued.join;
    await clock.advance(296_000);
    expect(limiter.state().queued.join).toBe(waiting);
    await clock.advance(1_000);
    expect(limiter.state().queued.join).toBe(waiting - 1);
    limiter.observe({
      limit: 1000,
      remaining: 0,
      resetAtMs: clock.now() + 300_000,
      resetInMs: midnight - clock.now(),
    });
    await clock.advance(299_000);
    expect(limiter.state().queued.join).toBe(waiting - 1);
    // The day turned: the service's window is gone, and the count of our own says the rest.
    await clock.advance(12 * HOUR_MS);
    expect(limiter.state().queued.join).toBe(0);
    limiter.close();
  });

  it('a reset in 2286 is no day’s: nothing left holds requests no longer than the longest wait', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const limiter = new RateLimiter({ perMinute: 120, perDay: 25_000, clock });
    await limiter.acquire('join');
    const headers = {
      'x-ratelimit-limit': '25000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '9999999999',
    };
    const info = readRateLimitHeaders(headers, clock.now());
    expect(isDayWindow(info, clock.now(), 25_000, 120)).toBe(false);
    limiter.observe(info);
    const granted: Lane[] = [];
    for (const lane of ['background', 'join'] as const)
      void limiter.acquire(lane).then(() => granted.push(lane), ignore);
    await clock.advance(299_000);
    expect(granted).toEqual([]);
    await clock.advance(1_000);
    expect(granted).toEqual(['join', 'background']);
    expect(limiter.state().perDay).toBe(25_000);
    limiter.close();
  });

  it('a day window saying nothing is left holds every lane five minutes, then one request asks again', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const limiter = new RateLimiter({ perMinute: 120, perDay: 25_000, clock });
    await limiter.acquire('join');
    limiter.observe({
      limit: 25_000,
      remaining: 0,
      resetAtMs: clock.now() + 300_000,
      resetInMs: 10 * HOUR_MS,
    });
    const granted: Lane[] = [];
    for (const lane of ['background', 'join', 'join'] as const)
      void limiter.acquire(lane).then(() => granted.push(lane), ignore);
    await clock.advance(299_000);
    expect(granted).toEqual([]);
    await clock.advance(1_000);
    expect(granted).toEqual(['join']);
    // Its answer describes the minute: the day's word is old, and the counts judge the day again.
    limiter.observe({ limit: 120, remaining: 100, resetAtMs: clock.now() + 30_000, resetInMs: 30_000 });
    await clock.advance(0);
    expect(granted).toEqual(['join', 'join', 'background']);
    limiter.close();
  });

  it('tells a day window from a minute window by its reset on the answer’s own clock', () => {
    const now = Date.UTC(2025, 0, 1, 12);
    // The service's clock is ten minutes ahead of ours: its minute window still resets within a minute of its `Date`.
    const ahead = new Date(now + 600_000).toUTCString();
    const at = (ms: number) => String(Math.floor((now + 600_000 + ms) / 1000));
    const minute = readRateLimitHeaders(
      {
        date: ahead,
        'x-ratelimit-limit': '120',
        'x-ratelimit-remaining': '80',
        'x-ratelimit-reset': at(50_000),
      },
      now,
    );
    const day = readRateLimitHeaders(
      {
        date: ahead,
        'x-ratelimit-limit': '25000',
        'x-ratelimit-remaining': '80',
        'x-ratelimit-reset': at(11 * HOUR_MS),
      },
      now,
    );
    expect(isDayWindow(minute, now, 25_000, 120)).toBe(false);
    expect(isDayWindow(day, now, 25_000, 120)).toBe(true);
    // In the day's last minutes its reset is as close as a minute's: its ceiling tells it.
    const lastMinutes = readRateLimitHeaders(
      {
        date: ahead,
        'x-ratelimit-limit': '25000',
        'x-ratelimit-remaining': '80',
        'x-ratelimit-reset': at(40_000),
      },
      now,
    );
    expect(isDayWindow(lastMinutes, now, 25_000, 120)).toBe(true);
    expect(isDayWindow(lastMinutes, now, 10_000, 120)).toBe(false);
  });

  it('a minute window from a service minutes ahead is still the minute: it paces, and the day is untouched', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const limiter = new RateLimiter({ perMinute: 120, perDay: 25_000, clock });
    await limiter.acquire('join');
    // Its reset is ten and a half minutes ahead on our clock (read as five, the longest wait), 30 s on its own.
    limiter.observe({ limit: 120, remaining: 2, resetAtMs: clock.now() + 300_000, resetInMs: 30_000 });
    expect(limiter.state().remainingThisMinute).toBe(2);
    expect(limiter.state().remainingToday).toBe(24_999);
    expect(limiter.state().perDay).toBe(25_000);
    limiter.close();
  });
});

describe('the day’s count across a restart', () => {
  it('a restarted server goes on from the day it had spent, saved without the key', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const apiKey = 'rstr_k7q2_Sup3rS3cretValue';
    const before = new RateLimiter({ perMinute: 1000, perDay: 100, burst: 1000, clock });
    expect(await acquireMany(before, clock, 'join', 80)).toBe(80);
    const text = encodeDay(keyTag(apiKey), before.day.saved(clock.now()), clock.now());
    before.close();
    expect(text).not.toContain('Sup3rS3cretValue');
    expect(text).not.toContain('k7q2');

    await clock.advance(60_000);
    const after = new RateLimiter({ perMinute: 1000, perDay: 100, burst: 1000, clock });
    const decoded = decodeDay(text, keyTag(apiKey));
    if (!('day' in decoded)) throw new Error(decoded.problem);
    after.day.restore(decoded.day, clock.now());
    expect(after.state().remainingToday).toBe(20);
    // Background work is past its reserve already; refreshes have ten; joins keep the rest.
    expect(await acquireMany(after, clock, 'background', 10)).toBe(0);
    expect(await acquireMany(after, clock, 'refresh', 20)).toBe(10);
    expect(await acquireMany(after, clock, 'join', 20)).toBe(10);
    after.close();
  });

  it('another key’s day, or a count a day old, is not taken back', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const limiter = new RateLimiter({ perMinute: 1000, perDay: 100, burst: 1000, clock });
    await acquireMany(limiter, clock, 'join', 50);
    const text = encodeDay(keyTag('rstr_aaaa_secret'), limiter.day.saved(clock.now()), clock.now());
    expect(decodeDay(text, keyTag('rstr_bbbb_secret'))).toEqual({
      problem: 'it was saved for another API key',
    });
    expect(decodeDay('{"version":1', keyTag('rstr_aaaa_secret'))).toEqual({ problem: 'it is not JSON' });
    const decoded = decodeDay(text, keyTag('rstr_aaaa_secret'));
    if (!('day' in decoded)) throw new Error(decoded.problem);
    await clock.advance(24 * HOUR_MS + 10 * 60_000);
    const later = new RateLimiter({ perMinute: 1000, perDay: 100, burst: 1000, clock });
    later.day.restore(decoded.day, clock.now());
    expect(later.state().remainingToday).toBe(100);
    limiter.close();
    later.close();
  });
});

describe('other servers on the key, seen in its minute windows', () => {
  it('background work gives way once the key’s day, every server counted, runs low; joins do not', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const windows = new MinuteWindows(clock);
    const limiter = new RateLimiter({ perMinute: 120, perDay: 2_000, clock });
    // Others send 18 a minute; this server 2 background requests a minute: the key spends 20 a
    // minute, so three quarters of its day of 2,000 are gone after about 75 minutes.
    otherServer(clock, windows, 18, 1_000);
    const background = ourRequests(clock, windows, limiter, 'background', 30_000, 20_000);
    const start = clock.now();
    for (let minute = 0; minute < 60; minute++) await clock.advance(60_000);
    // The others' pace as the windows show it: nine times this server's.
    const pace = limiter.day.report(clock.now()).pace;
    expect(pace.others! / pace.own!).toBeGreaterThan(8);
    expect(pace.others! / pace.own!).toBeLessThan(10);
    for (let minute = 60; minute < 120; minute++) await clock.advance(60_000);
    const last = background.at(-1)! - start;
    expect(last).toBeGreaterThan(65 * 60_000);
    expect(last).toBeLessThan(90 * 60_000);
    // Its own count is far from the day's reserve: only the others' part stopped it.
    expect(background.length).toBeLessThan(200);
    expect(limiter.state().remainingToday).toBeGreaterThan(1_800);
    // A join still goes at once.
    let joined = false;
    void limiter.acquire('join').then(() => {
      joined = true;
    });
    await clock.advance(0);
    expect(joined).toBe(true);
    limiter.close();
  });

  it('alone on the key, the whole day is its own', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const windows = new MinuteWindows(clock);
    const limiter = new RateLimiter({ perMinute: 120, perDay: 2_000, clock });
    const background = ourRequests(clock, windows, limiter, 'background', 30_000, 20_000);
    for (let minute = 0; minute < 120; minute++) await clock.advance(60_000);
    expect(background.length).toBe(240);
    expect(limiter.day.report(clock.now()).pace.others).toBe(0);
    limiter.close();
  });
});
