import { describe, expect, it } from 'vitest';
import { DutyLedger } from '../../../src/core/duty/duty-ledger';
import { DutyReader } from '../../../src/core/duty/duty-reader';
import { silentLogger } from '../../../src/core/ports';
import { FakeClock } from '../limiter/fake-clock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const fields = { member: 'who', end: 'off', duration: null, sortable: true } as const;

interface Session {
  id: string;
  who: string;
  startedAt: string;
  off: string | null;
}

/** A list endpoint over `sessions` as the service pages it (100 a page), counting requests. */
function service(sessions: Session[]) {
  const calls: { query: Record<string, unknown>; maxPages: number }[] = [];
  let requests = 0;
  return {
    calls,
    get requests() {
      return requests;
    },
    list: async (
      _path: string,
      query: Record<string, string | readonly string[]>,
      _lane: string,
      maxPages: number,
    ) => {
      calls.push({ query, maxPages });
      const members = new Set(query.who as readonly string[]);
      const after = Date.parse(query['startedAt.after'] as string);
      const found = sessions
        .filter((s) => members.has(s.who) && Date.parse(s.startedAt) > after)
        .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
      const pages = Math.max(1, Math.min(maxPages, Math.ceil(found.length / 100)));
      requests += pages;
      return found.slice(0, pages * 100);
    },
  };
}

const session = (id: string, who: string, startAgoMs: number, hours: number | null): Session => ({
  id,
  who,
  startedAt: new Date(NOW - startAgoMs).toISOString(),
  off: hours === null ? null : new Date(NOW - startAgoMs + hours * HOUR).toISOString(),
});

function reader(sessions: Session[]) {
  const clock = new FakeClock(NOW);
  const ledger = new DutyLedger();
  const fake = service(sessions);
  const duty = new DutyReader({ list: fake.list, fields, ledger, clock, logger: silentLogger });
  return { clock, ledger, fake, duty };
}

describe('duty reader', () => {
  it('hours for 7 and 30 days: sessions across the window edge count only their part inside', async () => {
    const { ledger, duty } = reader([
      session('a', 'm1', 2 * DAY, 3), // 3 h, inside 7 days
      session('b', 'm1', 7 * DAY + HOUR, 2), // began 1 h before the 7-day edge: 1 h inside it
      session('c', 'm1', 20 * DAY, 5),
      session('d', 'm1', 40 * DAY, 8), // outside 30 days
      session('e', 'm1', 30 * 60_000, null), // on duty for the last 30 minutes
    ]);
    await duty.refresh(['m1'], 1);
    expect(ledger.hours('m1', 7, NOW)).toBe(3 + 1 + 0.5);
    expect(ledger.hours('m1', 30, NOW)).toBe(3 + 2 + 5 + 0.5);
    expect(ledger.hours('m2', 7, NOW)).toBeNull();
    expect(ledger.hours('m1', 31, NOW)).toBeNull();
  });

  it('one request per 100 members per refresh; a batch cut short resumes from its last session', async () => {
    const members = Array.from({ length: 250 }, (_, i) => `m${i}`);
    // m0 has 150 sessions: its batch needs two pages, the budget gives it one.
    const sessions = Array.from({ length: 150 }, (_, i) => session(`s${i}`, 'm0', (i + 1) * HOUR, 0.5));
    const { ledger, fake, duty } = reader(sessions);
    const first = await duty.refresh(members, 3);
    expect(first.requests).toBe(3);
    expect(fake.requests).toBe(3);
    expect(fake.calls.map((c) => (c.query.who as string[]).length)).toEqual([100, 100, 50]);
    // Not all of the first batch's sessions were read yet: none of its members is known.
    expect(ledger.hours('m0', 30, NOW)).toBeNull();
    expect(ledger.hours('m1', 30, NOW)).toBeNull();
    expect(ledger.hours('m150', 30, NOW)).toBe(0);
    const second = await duty.refresh(members, 3);
    expect(second.requests).toBeLessThanOrEqual(3);
    expect(ledger.hours('m0', 30, NOW)).toBe(75);
    expect(ledger.hours('m1', 30, NOW)).toBe(0);
    // The resumed read asked from m0's last session on, not from 30 days back.
    const resumed = fake.calls.find((c, i) => i >= 3 && (c.query.who as string[]).includes('m0'))!;
    expect(Date.parse(resumed.query['startedAt.after'] as string)).toBeGreaterThan(NOW - 60 * HOUR);
  });

  it('an open session is asked for again until it ends; members who left are forgotten', async () => {
    const open = session('o', 'm1', HOUR, null);
    const sessions = [open];
    const { clock, ledger, duty, fake } = reader(sessions);
    await duty.refresh(['m1'], 1);
    await clock.advance(HOUR);
    open.off = new Date(NOW + 30 * 60_000).toISOString();
    await duty.refresh(['m1'], 1);
    expect(Date.parse(fake.calls[1]!.query['startedAt.after'] as string)).toBeLessThan(
      Date.parse(open.startedAt),
    );
    expect(ledger.hours('m1', 7, clock.now())).toBe(1.5);
    await duty.refresh([], 0);
    expect(ledger.hours('m1', 7, clock.now())).toBeNull();
  });
});
