import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockRoster } from '../../../dev/mock-roster/server';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Another server on the same key: `count` requests of its own, a few at a time. */
async function otherServerSpends(mock: MockRoster, count: number): Promise<void> {
  const send = () =>
    fetch(`${mock.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${mock.keys.full}` } }).then(
      (answer) => answer.arrayBuffer(),
    );
  for (let sent = 0; sent < count; sent += 20) {
    await Promise.all(Array.from({ length: Math.min(20, count - sent) }, send));
  }
}

/** Runs a console command and returns the roster lines it printed. */
async function run(harness: Harness, command: string, until: RegExp): Promise<string> {
  const before = harness.server.log.lines.length;
  harness.server.executeCommand(command);
  return eventually(() => {
    const text = harness.server.log.lines.slice(before).join('\n');
    return until.test(text) ? text : undefined;
  }, 20_000);
}

const fullKey = (mock: MockRoster) => mock.keyRecords.find((key) => key.name === 'full')!;

/** What `roster status` says is left of the day. */
async function leftToday(harness: Harness): Promise<number> {
  const text = await run(harness, 'roster status', /\d+\/\d+ today/);
  return Number(/(\d+)\/\d+ today/.exec(text)![1]);
}

describe("the key's day across servers", () => {
  it('a restart goes on from the day counted so far, not from zero', async () => {
    h = await startHarness({ config: { rateLimit: { perDay: 1_000 } } });
    await eventually(() => h!.logText().includes('the roster mirror holds'), 20_000);
    const sent = h.mock.counters.log.length;
    const before = await leftToday(h);
    expect(before).toBeLessThanOrEqual(1_000 - sent);
    const from = h.server.log.lines.length;
    h.server.restartResource('roster');
    await eventually(
      () => h!.server.log.lines.slice(from).some((line) => line.includes('connected to the roster')),
      10_000,
    );
    // The new run's own requests come on top of what the last one spent.
    expect(await leftToday(h)).toBeLessThan(before);
  }, 40_000);

  it('with the day all but spent by other servers, the mirror and the audit log wait, a join is still decided, and doctor says the day is spent', async () => {
    // The service's day resets at its midnight, twelve hours on.
    const t0 = Date.now();
    let shift = 0;
    let spentAt = 0;
    h = await startHarness({
      mockNow: () => Date.UTC(2025, 5, 2, 12) + (Date.now() - t0) + shift,
      // The doctor's background checks wait for a day that has none left: they give up quickly.
      config: { gate: { timeoutSeconds: 3 } },
      beforeStart: async (mock) => {
        const key = fullKey(mock);
        key.perDay = 1_000;
        key.perMinute = 1_000;
        await otherServerSpends(mock, 990);
        key.perMinute = 120;
        // A new minute of the service's: 120 left in it, 10 in the day, so its answers carry the day.
        shift += 60_000;
        spentAt = mock.counters.log.length;
      },
    });
    const { mock } = h;
    await eventually(() => h!.logText().includes('connected to the roster'), 10_000);
    const member = mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const decision = await h.server.connectPlayer({ name: 'Late', identifiers: [member.gameLicense] })
      .decision;
    expect(decision.admitted).toBe(true);

    // Doctor's last line: its checks that need a request in the background have waited and given up.
    const text = await run(h, 'roster doctor', /licenses:/);
    // Joins kept the day's last requests: nothing of the mirror's reads or the audit log was sent.
    const sent = mock.counters.log.slice(spentAt).map((entry) => `${entry.path}${entry.query}`);
    expect(sent.filter((request) => request.startsWith('/api/v1/audit-logs'))).toEqual([]);
    expect(sent.filter((request) => /[?&](page|sort|createdAt\.after)=/.test(request))).toEqual([]);
    expect(sent.length).toBeLessThanOrEqual(10);
    expect(text).toMatch(
      /✗ daily budget: this server spends about [\d,]+ requests a day \(.*\): \d+ % of the key's 1,000; 99\d used today \(the service's count\)\. (At that pace the key's day runs out at about \d\d:\d\d UTC|The key's day is all but spent)/,
    );
    expect(text).toContain(
      "background reads (the mirror's full re-reads, new members) stop with 25 % of it left",
    );
    expect(mock.counters.log.slice(spentAt).filter((entry) => entry.status === 429)).toEqual([]);
  }, 40_000);

  it("doctor tells how many servers' worth the key carries when the service's counts show others on it", async () => {
    // The service's minute began 12 s before the resource started: all of ours in it are counted in it.
    const t0 = Date.now();
    h = await startHarness({
      mockNow: () => Date.UTC(2025, 5, 2, 9, 30, 12) + (Date.now() - t0),
      config: { rateLimit: { perDay: 2_000 }, mirror: { enabled: false } },
      beforeStart: (mock) => {
        const key = fullKey(mock);
        key.perDay = 2_000;
        key.perMinute = 1_000;
      },
    });
    await eventually(() => h!.logText().includes('connected to the roster'), 10_000);
    // Another server sends 200 in the same minute of the service's, before doctor's own requests.
    await otherServerSpends(h.mock, 200);
    const text = await run(h, 'roster doctor', /daily budget/);
    const worth = /it carries about (\d+\.\d) servers' worth, about ([\d,]+) a day/.exec(text);
    expect(worth, text).not.toBeNull();
    expect(Number(worth![1])).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/✗ daily budget: .*of the key's 2,000/);

    // The day's count is kept for the next start, in the resource folder, without the key.
    h.server.stopResource('roster');
    const saved = join(h.folder, 'roster-day.json');
    expect(existsSync(saved)).toBe(true);
    const file = readFileSync(saved, 'utf8');
    expect(file).not.toContain(h.mock.keys.full!);
    expect(file).not.toContain(h.mock.keyId('full'));
    expect((JSON.parse(file) as { buckets: unknown[] }).buckets.length).toBeGreaterThan(0);
  }, 40_000);
});
