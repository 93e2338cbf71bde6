import { describe, expect, it } from 'vitest';
import { joinReason } from '../../../src/features/panel/join-reason';
import { createPanel } from '../../../src/features/panel/panel';
import { RECENT_DECISIONS } from '../../../src/features/panel/panel-recorder';
import type { JoinDecision } from '../../../src/kernel/join-decision';
import { silentLogger } from '../../../src/platform/ports';
import { FakeClock } from '../../http/limiter/fake-clock';
import { API_KEY, fakeSources, TOKEN } from './fake-sources';
import { call } from './fx-http-fake';

const texts = { notOnRoster: 'not on roster', notInDepartment: 'no dept', unavailable: 'unavailable' };
const decision = (over: Partial<JoinDecision>): JoinDecision => ({
  at: 0,
  ms: 120,
  tempId: '65536',
  name: 'Alice',
  license: 'license:0123456789abcdef0123456789abcdef01234567',
  admitted: true,
  note: 'roster',
  message: undefined,
  ...over,
});

describe('join reasons', () => {
  it('sorts the gate notes and messages into a fixed set', () => {
    const cases: [Partial<JoinDecision>, string][] = [
      [{}, 'member'],
      [{ note: 'admitted; departments still loading' }, 'member'],
      [{ note: 'bypass ACE roster.bypass' }, 'bypass'],
      [{ note: 'service unavailable, last-known' }, 'last-known'],
      [{ note: 'service unavailable, policy' }, 'policy'],
      [{ message: 'not on roster' }, 'gate-off'],
      [{ admitted: false, note: 'roster', message: 'not on roster' }, 'not-on-roster'],
      [{ admitted: false, note: 'roster', message: 'no dept' }, 'department'],
      [{ admitted: false, note: 'roster', message: 'Your status is SUSPENDED' }, 'status'],
      [{ admitted: false, note: 'no license identifier', message: 'x' }, 'no-license'],
      [{ admitted: false, note: 'roster check not set up', message: 'x' }, 'not-configured'],
      [{ admitted: false, note: 'service unavailable, policy', message: 'unavailable' }, 'unavailable'],
      [{ admitted: false, note: 'no answer within 15s, policy', message: 'unavailable' }, 'timeout'],
      [{ admitted: false, note: 'roster; a further check refused', message: 'take the course' }, 'check'],
    ];
    for (const [over, reason] of cases)
      expect(joinReason(decision(over), texts), JSON.stringify(over)).toBe(reason);
  });
});

describe('recording', () => {
  const make = () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 12, 0, 30));
    const panel = createPanel({
      token: TOKEN,
      sources: fakeSources(),
      refusalTexts: () => texts,
      clock,
      logger: silentLogger,
      basePath: '/roster/',
      secrets: [API_KEY],
      assets: { js: '', css: '' },
    });
    return { clock, panel };
  };

  it('keeps the last few hundred decisions and counts every one in the metrics', async () => {
    const { panel } = make();
    for (let i = 0; i < RECENT_DECISIONS + 50; i++) {
      panel.decided(
        decision({
          at: i,
          admitted: i % 2 === 0,
          message: i % 2 ? 'not on roster' : undefined,
          ms: i % 2 ? 30 : 700,
        }),
      );
    }
    expect(panel.recorder.decisions.size).toBe(RECENT_DECISIONS);
    const metrics = await panel.metrics.text();
    expect(metrics).toContain('roster_join_decisions_total{outcome="admitted",reason="member"} 175');
    expect(metrics).toContain('roster_join_decisions_total{outcome="refused",reason="not-on-roster"} 175');
    expect(metrics).toContain('roster_join_decision_seconds_bucket{le="0.05",outcome="refused"} 175');
    expect(metrics).toContain('roster_join_decision_seconds_bucket{le="0.5",outcome="admitted"} 0');
    expect(metrics).toContain('roster_join_decision_seconds_count{outcome="admitted"} 175');
    const names = [...metrics.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(name).toMatch(/^roster_/);
  });

  it('counts requests per minute and 429s for the chart and the metrics', async () => {
    const { clock, panel } = make();
    panel.answered(200);
    panel.answered(429);
    await clock.advance(60_000);
    panel.answered(null);
    const reply = await call(panel.handler, {
      path: '/status.json',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const status = JSON.parse(reply.body);
    const series = status.rateLimit.perMinuteSeries as { requests: number; throttled: number }[];
    expect(series).toHaveLength(60);
    expect(series.slice(-2).map((m) => [m.requests, m.throttled])).toEqual([
      [2, 1],
      [1, 0],
    ]);
    expect(status.health.serviceReachable).toBe(false);
    const metrics = await panel.metrics.text();
    expect(metrics).toContain('roster_requests_total 3');
    expect(metrics).toContain('roster_requests_throttled_total 1');
    expect(metrics).toContain('roster_rate_limit_remaining{window="minute"} 117');
    expect(metrics).toContain('roster_online_players 2');
  });

  it('builds the decision histogram and per-reason counts from the ring', async () => {
    const { panel } = make();
    panel.decided(decision({ ms: 40 }));
    panel.decided(decision({ ms: 40_000 }));
    panel.decided(decision({ admitted: false, message: 'no dept', ms: 300 }));
    const reply = await call(panel.handler, {
      path: '/status.json',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const { joins } = JSON.parse(reply.body);
    expect(joins.histogram.counts[0]).toBe(1);
    expect(joins.histogram.counts.at(-1)).toBe(1);
    expect(joins.byReason).toEqual([
      { outcome: 'admitted', reason: 'member', count: 2 },
      { outcome: 'refused', reason: 'department', count: 1 },
    ]);
    expect(joins.recent[0].reason).toBe('department');
    expect(joins.recent[0].license).toBe('license:0123…4567');
  });
});
