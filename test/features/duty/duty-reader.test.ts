import { describe, expect, it } from 'vitest';
import { DutyLedger } from '../../../src/features/duty/duty-ledger';
import { DutyReader } from '../../../src/features/duty/duty-reader';
import { silentLogger } from '../../../src/platform/ports';
import { FakeClock } from '../../http/limiter/fake-clock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const fields = {
  member: 'who',
  end: 'off',
  duration: null,
  sortable: { startedAt: true, createdAt: true },
} as const;

interface Session {
  id: string;
  who: string;
  startedAt: string;
  off: string | null;
  createdAt: string;
}

/**
 * A list endpoint over `sessions` as the service pages it (100 a page), counting requests: the
 * member filter (absent: everyone), `startedAt.after` or `createdAt.after`, sorted by what the
 * query asks.
 */
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
      // No member filter: every member's sessions.
      const members = query.who === undefined ? null : new Set(query.who as readonly string[]);
      const field = 'createdAt.after' in query ? 'createdAt' : 'startedAt';
      const after = Date.parse(query[`${field}.after`] as string);
      const found = sessions
        .filter((s) => (members === null || members.has(s.who)) && Date.parse(s[field]) > after)
        .sort((a, b) => Date.parse(a[field]) - Date.parse(b[field]));
      const pages = Math.max(1, Math.min(maxPages, Math.ceil(found.length / 100)));
      requests += pages;
      return found.slice(0, pages * 100);
    },
  };
}

/** A session that began `startAgoMs` before NOW, stored as it began unless `storedAt` says when. */
const session = (
  id: string,
  who: string,
  startAgoMs: number,
  hours: number | null,
  storedAt = NOW - startAgoMs,
): Session => ({
  id,
  who,
  startedAt: new Date(NOW - startAgoMs).toISOString(),
  off: hours === null ? null : new Date(NOW - startAgoMs + hours * HOUR).toISOString(),
  createdAt: new Date(storedAt).toISOString(),
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
    const resumed = fake.calls.find(
      (c, i) => i >= 3 && (c.query.who as string[] | undefined)?.includes('m0'),
    )!;
    expect(Date.parse(resumed.query['startedAt.after'] as string)).toBeGreaterThan(NOW - 60 * HOUR);
  });

  it('an open session is asked for again, its member alone, until it ends; members who left are forgotten', async () => {
    const open = session('o', 'm1', HOUR, null);
    const sessions = [open, session('x', 'm2', DAY, 1)];
    const { clock, ledger, duty, fake } = reader(sessions);
    await duty.refresh(['m1', 'm2'], 2);
    await clock.advance(HOUR);
    open.off = new Date(NOW + 30 * 60_000).toISOString();
    const from = fake.calls.length;
    await duty.refresh(['m1', 'm2'], 2);
    // What was stored since (nothing: the end does not move the stamp), and m1 from before the open session.
    const asked = fake.calls.slice(from).map((c) => c.query);
    expect(asked).toHaveLength(2);
    const onDuty = asked.find((q) => q.who !== undefined)!;
    expect(onDuty.who).toEqual(['m1']);
    expect(Date.parse(onDuty['createdAt.after'] as string)).toBeLessThan(Date.parse(open.createdAt));
    expect(ledger.hours('m1', 7, clock.now())).toBe(1.5);
    // Ended: no member is asked for again.
    const after = fake.calls.length;
    await duty.refresh(['m1', 'm2'], 2);
    expect(fake.calls.slice(after).map((c) => c.query.who)).toEqual([undefined]);
    await duty.refresh([], 0);
    expect(ledger.hours('m1', 7, clock.now())).toBeNull();
  });

  it('one request for what 250 members had stored since, whoever stored it; not one per 100 members', async () => {
    const members = Array.from({ length: 250 }, (_, i) => `m${i}`);
    const sessions = [session('a', 'm7', DAY, 1), session('b', 'offline', DAY, 2)];
    const { clock, ledger, duty, fake } = reader(sessions);
    await duty.refresh(members, 3);
    for (let round = 1; round <= 3; round++) {
      await clock.advance(5 * 60_000);
      // Stored late for an online member and for one not online here.
      sessions.push(session(`late${round}`, `m${round * 50}`, 3 * HOUR, 1, clock.now()));
      sessions.push(session(`other${round}`, 'offline', 3 * HOUR, 1, clock.now()));
      const from = fake.calls.length;
      const done = await duty.refresh(members, 3);
      expect(done.requests).toBe(1);
      const [asked] = fake.calls.slice(from).map((c) => c.query);
      expect(asked!.who).toBeUndefined();
      expect(Date.parse(asked!['createdAt.after'] as string)).toBeGreaterThan(clock.now() - HOUR);
      expect(ledger.hours(`m${round * 50}`, 7, clock.now())).toBe(1);
      expect(done.community?.sessions.map((s) => s.id)).toContain(`other${round}`);
    }
    expect(ledger.hours('m7', 7, clock.now())).toBe(1);
    expect(ledger.hours('offline', 7, clock.now())).toBeNull();
  });

  it('with a budget of one, what was stored since and the sessions on duty take turns: each read every other refresh', async () => {
    const open = session('o', 'm1', HOUR, null);
    const { clock, duty, fake } = reader([open]);
    await duty.refresh(['m1'], 1);
    const from = fake.calls.length;
    for (let i = 0; i < 4; i++) {
      await clock.advance(60_000);
      expect((await duty.refresh(['m1'], 1)).requests).toBe(1);
    }
    expect(fake.calls.slice(from).map((c) => (c.query.who === undefined ? 'community' : 'on duty'))).toEqual([
      'community',
      'on duty',
      'community',
      'on duty',
    ]);
  });
});

describe('duty reader: sessions stored late, corrected, deleted', () => {
  it('a session stored hours after it began is read at the next refresh, by what was stored since', async () => {
    const sessions = [session('a', 'm1', DAY, 1)];
    const { clock, ledger, duty, fake } = reader(sessions);
    await duty.refresh(['m1'], 1);
    await clock.advance(30 * 60_000);
    // Posted at clock-out: began 3 h ago, stored now.
    sessions.push(session('late', 'm1', 3 * HOUR - 30 * 60_000, 3, clock.now()));
    const second = await duty.refresh(['m1'], 1);
    expect(second.requests).toBe(1);
    expect(ledger.hours('m1', 7, clock.now())).toBe(4);
    const asked = fake.calls[1]!.query;
    expect(asked['startedAt.after']).toBeUndefined();
    expect(Date.parse(asked['createdAt.after'] as string)).toBeGreaterThan(NOW - HOUR);
    expect(asked.sort).toBe('createdAt');
  });

  it('a member named again is read in full at the next refresh: a corrected session counts as corrected, a deleted one no more', async () => {
    const sessions = [session('a', 'm1', 2 * DAY, 1), session('b', 'm1', DAY, 2), session('c', 'm2', DAY, 1)];
    const { clock, ledger, duty, fake } = reader(sessions);
    await duty.refresh(['m1', 'm2'], 1);
    expect(ledger.hours('m1', 7, NOW)).toBe(3);
    sessions[0] = session('a', 'm1', 2 * DAY, 4);
    sessions.splice(1, 1);
    // Neither change is stored anew: reads of what was stored since do not see them.
    await clock.advance(60_000);
    await duty.refresh(['m1', 'm2'], 1);
    expect(ledger.hours('m1', 7, NOW)).toBe(3);
    duty.reread(['m1', 'someone offline']);
    const third = await duty.refresh(['m1', 'm2'], 1);
    expect(ledger.hours('m1', 7, NOW)).toBe(4);
    expect(ledger.hours('m2', 7, NOW)).toBe(1);
    expect(third).toMatchObject({ requests: 1, reread: 1, members: 1 });
    const full = fake.calls[2]!.query;
    expect(full.who).toEqual(['m1']);
    expect(Date.parse(full['startedAt.after'] as string)).toBe(clock.now() - 30 * DAY);
  });

  it('names within the budget: never more requests than it; those named read in full, and what was stored since, within two refreshes', async () => {
    const members = Array.from({ length: 150 }, (_, i) => `m${i}`);
    const { clock, duty, fake } = reader([]);
    await duty.refresh(members, 2);
    for (let round = 0; round < 3; round++) {
      const named = members.slice(round * 10, round * 10 + 10);
      duty.reread(named);
      const from = fake.calls.length;
      await clock.advance(60_000);
      expect((await duty.refresh(members, 2)).requests).toBeLessThanOrEqual(2);
      await clock.advance(60_000);
      expect((await duty.refresh(members, 2)).requests).toBeLessThanOrEqual(2);
      const asked = fake.calls.slice(from).map((c) => c.query);
      expect(asked.filter((q) => 'startedAt.after' in q).flatMap((q) => q.who as string[])).toEqual(named);
      expect(asked.some((q) => q.who === undefined && 'createdAt.after' in q)).toBe(true);
    }
    expect(fake.requests).toBe(fake.calls.length);
  });

  it('a full read cut short ends before deletions count; named again meanwhile, another full read follows', async () => {
    const sessions = Array.from({ length: 150 }, (_, i) => session(`s${i}`, 'm0', (i + 1) * HOUR, 0.5));
    const { ledger, duty, fake } = reader(sessions);
    await duty.refresh(['m0'], 1);
    await duty.refresh(['m0'], 1);
    expect(ledger.hours('m0', 30, NOW)).toBe(75);
    duty.reread(['m0']);
    sessions.splice(0, 20);
    // From here one request for the full read, one for what was stored since.
    await duty.refresh(['m0'], 2);
    // A page read of two: nothing is taken away yet.
    expect(ledger.hours('m0', 30, NOW)).toBe(75);
    duty.reread(['m0']);
    await duty.refresh(['m0'], 2);
    expect(ledger.hours('m0', 30, NOW)).toBe(65);
    await duty.refresh(['m0'], 1);
    const last = fake.calls.at(-1)!.query;
    expect(Date.parse(last['startedAt.after'] as string)).toBe(NOW - 30 * DAY);
  });

  it("what was stored is judged on the service's clock", async () => {
    const clock = new FakeClock(NOW);
    const fake = service([session('a', 'm1', HOUR, 0.5)]);
    const duty = new DutyReader({
      list: fake.list,
      fields,
      ledger: new DutyLedger(),
      clock,
      logger: silentLogger,
      // The service's clock runs an hour ahead of this server's.
      serviceTime: () => clock.now() + HOUR,
    });
    await duty.refresh(['m1'], 1);
    await duty.refresh(['m1'], 1);
    expect(Date.parse(fake.calls[1]!.query['createdAt.after'] as string)).toBeGreaterThan(NOW);
  });
});
