import { describe, expect, it } from 'vitest';
import { dailyBudgetLines } from '../../../src/features/day-budget/doctor-lines';
import { dailyCost, keyOutlook, type ServerRates } from '../../../src/http/limiter/daily-estimate';
import type { KeyDayReport } from '../../../src/http/limiter/key-day';
import { RateLimiter } from '../../../src/http/limiter/rate-limiter';
import { FakeClock } from '../../http/limiter/fake-clock';

const HOUR_MS = 3_600_000;
const now = Date.UTC(2025, 0, 1, 14);

/** A server with the defaults: audit log every 60 s, the mirror up with 2,000 members, 80 online. */
const rates: ServerRates = {
  auditSeconds: 60,
  mirror: { resyncMinutes: 360, held: 2_000, deciding: true },
  refreshSeconds: 300,
  dutySeconds: 0,
  feedHealthy: true,
  online: 80,
};

/** A whole day counted at the same pace as `report`'s six hours. */
const wholeDay = {
  own: { join: 120, write: 0, refresh: 1_560, background: 800 },
  countedSince: now - 24 * HOUR_MS,
};

/** The day as the limiter would report it after six hours at the defaults' pace. */
function report(more: Partial<KeyDayReport> = {}): KeyDayReport {
  return {
    perDay: 25_000,
    // Six hours: 360 audit reads and 60 more (joins' lookups, members the log named) in the refresh lane.
    own: { join: 30, write: 0, refresh: 390, background: 200 },
    countedSince: now - 6 * HOUR_MS,
    others: null,
    pace: { own: 75, others: 0 },
    today: { since: Date.UTC(2025, 0, 1), own: 620, others: null },
    serviceDay: null,
    ...more,
  };
}

describe("the doctor's daily estimate", () => {
  it('adds up the periodic work from the settings and what is held, and the rest at the pace counted', () => {
    // The key may read duty sessions: those of the 80 online are read every refresh interval.
    const cost = dailyCost({ ...rates, dutySeconds: 300 }, report(), now);
    expect(cost).toEqual({
      audit: 1_440,
      // Four full reads a day, each 20 pages of members and 20 of assignments.
      fullReads: 160,
      catalog: 96,
      // The mirror decides joins and the feed is on time: no refresh runs.
      refreshes: 0,
      // One request for the 80 online every 300 s.
      duty: 288,
      // (30 + 390) in six hours is 1,680 a day, of which 1,440 are the audit reads.
      measured: 240,
      measuredOverMs: 6 * HOUR_MS,
      total: 2_224,
    });
    // Without the mirror, the refresh is the safety net every 12 intervals: 24 a day of one page pair.
    const alone = dailyCost({ ...rates, mirror: null }, report(), now);
    expect(alone.refreshes).toBe(48);
    expect(alone.fullReads).toBe(0);
  });

  it('one server alone on the key: a line that it fits the day, with its parts', () => {
    // Counted since 08:00: the day's first eight hours are taken at the same pace (620 + 1,936 / 3).
    const outlook = keyOutlook(dailyCost(rates, report(), now), report(), now);
    expect(outlook.serversWorth).toBe(1);
    expect(dailyBudgetLines(outlook, now)).toEqual([
      "✓ daily budget: this server spends about 1,936 requests a day (audit log 1,440, full re-reads 160, departments and ranks 96, joins and changes 240 at the pace of the last 6 h 0 min): 8 % of the key's 25,000; 1,265 used today (counted here, the other servers as their minute windows showed them).",
    ]);
  });

  it("other servers on the key: how many servers' worth it carries, and when the day runs out", () => {
    // The others spend 15 times what this server does: 16 servers' worth, about 31,000 a day.
    const day = report({
      ...wholeDay,
      pace: { own: 80, others: 1_200 },
      // Over the day counted, the others sent 15 times this server's 2,480.
      others: 37_200,
      today: { since: Date.UTC(2025, 0, 1), own: 1_100, others: 16_000 },
    });
    const outlook = keyOutlook(dailyCost(rates, day, now), day, now);
    expect(outlook.serversWorth).toBe(16);
    expect(outlook.keyPerDay).toBe(30_976);
    expect(outlook.usedToday).toBe(17_100);
    // 7,900 left at 30,976 a day: about 6 h 7 min.
    expect(new Date(outlook.runsOutAt!).toISOString()).toBe('2025-01-01T20:07:15.123Z');
    const lines = dailyBudgetLines(outlook, now);
    expect(lines[0]).toBe(
      "✗ daily budget: this server spends about 1,936 requests a day (audit log 1,440, full re-reads 160, departments and ranks 96, joins and changes 240 at the pace of the last 24 h 0 min); the service's counts show other servers on this key: it carries about 16.0 servers' worth, about 30,976 a day: 124 % of the key's 25,000; 17,100 used today (counted here, the other servers as their minute windows showed them). At that pace the key's day runs out at about 20:07 UTC (in 6 h 7 min), 3 h 53 min before it resets.",
    );
    expect(lines[1]).toBe(
      "  As the day runs low, background reads (the mirror's full re-reads, new members) stop with 25 % of it left, the audit log and refreshes with 10 %, so joins keep the rest. Fewer servers on this key, a key of its own for each server (each key has its own day), or a longer mirror.resyncMinutes or refresh.auditSeconds keep it within the day.",
    );
  });

  it("the service's own count of the day, where it sends its day window, decides what is used", () => {
    const day = report({
      ...wholeDay,
      pace: { own: 80, others: 400 },
      serviceDay: { limit: 25_000, remaining: 1_000, resetAt: Date.UTC(2025, 0, 2) },
    });
    const outlook = keyOutlook(dailyCost(rates, day, now), day, now);
    expect(outlook.fromService).toBe(true);
    expect(outlook.usedToday).toBe(24_000);
    expect(outlook.serversWorth).toBe(6);
    const lines = dailyBudgetLines(outlook, now);
    expect(lines[0]).toMatch(
      /^✗ daily budget: .*6\.0 servers' worth.*24,000 used today \(the service's count\)\. At that pace the key's day runs out at about 16:03 UTC \(in 2 h 4 min\)/,
    );
  });

  it('once an hour is counted, the rolling day tells the servers’ worth, not the last minutes’ pace', () => {
    // 2,480 of this server's and 17,360 of the others' in the day counted: 8 servers' worth.
    const day = report({ ...wholeDay, others: 17_360, pace: { own: 80, others: 5_000 } });
    expect(keyOutlook(dailyCost(rates, day, now), day, now).serversWorth).toBe(8);
    // Others too few to tell from the counts' noise: this server alone.
    const alone = report({ ...wholeDay, others: 100, pace: { own: 80, others: 5_000 } });
    expect(keyOutlook(dailyCost(rates, alone, now), alone, now).serversWorth).toBe(1);
  });

  it('close to the day, but within it: a warning, not a failure', () => {
    const day = report({
      pace: { own: 80, others: 800 },
      today: { since: Date.UTC(2025, 0, 1), own: 100, others: 1_000 },
    });
    const outlook = keyOutlook(dailyCost(rates, day, now), day, now);
    expect(outlook.serversWorth).toBe(11);
    expect(outlook.runsOutAt).toBeNull();
    expect(dailyBudgetLines(outlook, now)[0]).toMatch(
      /^! daily budget: .*11\.0 servers' worth, about 21,296 a day: 85 % of the key's 25,000.*close to the day\.$/,
    );
  });
});

describe("the servers' worth, from what the limiter saw", () => {
  it('a key the service shows shared with three servers like this one is four servers’ worth', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12));
    const limiter = new RateLimiter({ perMinute: 120, perDay: 25_000, clock });
    // The service's minute windows; three others send what this server sends, 4 a minute each.
    const used = new Map<number, number>();
    const send = () => {
      const window = Math.floor(clock.now() / 60_000);
      used.set(window, (used.get(window) ?? 0) + 1);
      const reset = (window + 1) * 60_000;
      return {
        limit: 120,
        remaining: 120 - used.get(window)!,
        resetAtMs: reset,
        resetInMs: reset - clock.now(),
      };
    };
    for (const offset of [2_000, 6_000, 9_000]) {
      const tick = () => {
        send();
        clock.setTimeout(tick, 15_000);
      };
      clock.setTimeout(tick, offset);
    }
    const ours = () => {
      void limiter.acquire('refresh').then(() => limiter.observe(send()));
      clock.setTimeout(ours, 15_000);
    };
    clock.setTimeout(ours, 12_500);
    for (let minute = 0; minute < 90; minute++) await clock.advance(60_000);
    const day = limiter.day.report(clock.now());
    const outlook = keyOutlook(
      dailyCost({ ...rates, mirror: null, online: 0 }, day, clock.now()),
      day,
      clock.now(),
    );
    expect(outlook.serversWorth).toBeGreaterThan(3.5);
    expect(outlook.serversWorth).toBeLessThan(4.5);
    limiter.close();
  });
});
