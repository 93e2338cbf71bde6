/**
 * Duty hours, from the built bundle against the mock service, whose duty sessions carry field
 * names only its OpenAPI description explains (rosterRef, stoodDownAt, onDutySeconds): the
 * resource must read them from there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERVAL_SECONDS = 2;
const dutyRequests = (harness: Harness) =>
  harness.mock.counters.log.filter((e) => e.endpoint === 'GET /api/v1/duty-sessions');

async function start(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const harness = await startHarness({
    config: { refresh: { intervalSeconds: INTERVAL_SECONDS } },
    ...options,
  });
  h = harness;
  await eventually(() => harness.logText().includes('connected to the roster'));
  await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
  return harness;
}

async function join(harness: Harness, member: MockMember): Promise<number> {
  const decision = await harness.server.connectPlayer({
    name: member.displayName,
    identifiers: [member.gameLicense],
  }).decision;
  if (!decision.admitted) throw new Error(`${member.id} refused: ${decision.reason}`);
  await eventually(() => harness.caller.exports.roster!.getMember!(decision.id) !== null);
  return decision.id;
}

describe('duty hours', () => {
  it('hours for 7 and 30 days match the sessions; hours [id] answers the console, a player, usage', async () => {
    const harness = await start();
    const [alice, bob] = harness.mock.data.members.filter((m) => m.status === 'ACTIVE');
    const now = Date.now();
    const add = (member: MockMember, ago: number, hours: number) =>
      harness.mock.data.addDutySession(member.id, now - ago, hours * 60);
    add(alice!, 2 * DAY, 3);
    add(alice!, 6 * DAY, 1.25);
    add(alice!, 10 * DAY, 2);
    add(alice!, 25 * DAY, 4);
    add(alice!, 40 * DAY, 5);
    add(bob!, 3 * DAY, 0.5);
    const aliceId = await join(harness, alice!);
    const bobId = await join(harness, bob!);
    const roster = harness.caller.exports.roster!;
    await eventually(
      () => roster.getDutyHours!(aliceId) !== null && roster.getDutyHours!(bobId) !== null,
      10_000,
    );
    expect(roster.getDutyHours!(aliceId)).toBe(3 + 1.25);
    expect(roster.getDutyHours!(aliceId, 7)).toBe(3 + 1.25);
    expect(roster.getDutyHours!(aliceId, 30)).toBe(3 + 1.25 + 2 + 4);
    expect(roster.getDutyHours!(bobId, 30)).toBe(0.5);
    for (const days of [0, -1, 'x', '7', Number.NaN, {}])
      expect(roster.getDutyHours!(aliceId, days)).toBeNull();
    expect(roster.getDutyHours!(9999)).toBeNull();

    harness.server.executeCommand(`hours ${aliceId}`);
    await eventually(() =>
      harness.logText().includes('4.25 h on duty in the last 7 days, 10.25 h in the last 30 days'),
    );
    for (const garbage of ['hours abc', `hours ${aliceId} 7`, 'hours']) {
      const before = harness.server.log.lines.length;
      harness.server.executeCommand(garbage);
      await eventually(() =>
        harness.server.log.lines.slice(before).some((l) => l.includes('usage: hours [id]')),
      );
    }
    // A player sees their own hours; another's only with roster.manage.
    const chat = (target: number) =>
      harness.server.clientEvents
        .filter((e) => e.event === 'chat:addMessage' && e.target === target)
        .map((e) => (e.args[0] as { args: string[] }).args[1]);
    harness.server.executeCommand('hours', bobId);
    harness.server.executeCommand(`hours ${aliceId}`, bobId);
    await eventually(() => chat(bobId).length === 2);
    expect(chat(bobId)).toEqual([
      'You: 0.5 h on duty in the last 7 days, 0.5 h in the last 30 days.',
      'You may see only your own hours (seeing anyone’s needs roster.manage).',
    ]);

    harness.server.executeCommand('roster doctor');
    await eventually(() =>
      harness
        .logText()
        .includes(
          "✓ duty hours: /api/v1/duty-sessions fields, from the service's description: rosterRef (member), startedAt (start), stoodDownAt (end), onDutySeconds (length, seconds).",
        ),
    );
  });

  it('a player allowed roster.manage sees anyone’s hours', async () => {
    const harness = await start();
    const [alice, boss] = harness.mock.data.members.filter((m) => m.status === 'ACTIVE');
    harness.mock.data.addDutySession(alice!.id, Date.now() - DAY, 90);
    const aliceId = await join(harness, alice!);
    const bossId = await join(harness, boss!);
    harness.server.aces.addAce(`identifier.${boss!.gameLicense}`, 'roster.manage', 'allow');
    await eventually(() => harness.caller.exports.roster!.getDutyHours!(aliceId) !== null, 10_000);
    harness.server.executeCommand(`hours ${aliceId}`, bossId);
    await eventually(() =>
      harness.server.clientEvents.some(
        (e) =>
          e.event === 'chat:addMessage' &&
          e.target === bossId &&
          String((e.args[0] as { args: string[] }).args[1]).endsWith(
            '1.5 h on duty in the last 7 days, 1.5 h in the last 30 days.',
          ),
      ),
    );
  });

  it('without timelogs:read: null, no duty-sessions request, doctor says what to add', async () => {
    const harness = await start({
      beforeStart: (mock) => {
        const full = mock.keyRecords.find((k) => k.name === 'full')!;
        full.scopes = full.scopes.filter((s) => !s.startsWith('timelogs:'));
      },
    });
    const member = harness.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    harness.mock.data.addDutySession(member.id, Date.now() - DAY, 60);
    const id = await join(harness, member);
    harness.server.executeCommand('roster doctor');
    await eventually(() =>
      harness.logText().includes('the key lacks timelogs:read, so duty hours are unknown'),
    );
    expect(harness.logText()).toMatch(/Add timelogs:read to the key/);
    expect(harness.caller.exports.roster!.getDutyHours!(id)).toBeNull();
    harness.server.executeCommand(`hours ${id}`);
    await eventually(() => harness.logText().includes('Duty hours are not read on this server.'));
    expect(dutyRequests(harness)).toHaveLength(0);
  });

  it('250 players online, sessions corrected meanwhile: at most one duty-sessions request per 100 online members per interval', async () => {
    const harness = await start({
      members: 400,
      config: { refresh: { intervalSeconds: INTERVAL_SECONDS, auditSeconds: 1 } },
    });
    const members = harness.mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 250);
    expect(members).toHaveLength(250);
    const sessions = members
      .slice(0, 30)
      .map((m) => harness.mock.data.addDutySession(m.id, Date.now() - DAY, 60));
    const ids: number[] = [];
    for (let i = 0; i < members.length; i += 50)
      ids.push(...(await Promise.all(members.slice(i, i + 50).map((m) => join(harness, m)))));
    const roster = harness.caller.exports.roster!;
    await eventually(() => ids.every((id, i) => roster.getDutyHours!(id) === (i < 30 ? 1 : 0)), 20_000);
    const from = dutyRequests(harness).length;
    // Staff correct ten sessions an interval: those members are read again in full, within the budget.
    for (let round = 0; round < 3; round++) {
      for (const session of sessions.slice(round * 10, round * 10 + 10))
        harness.mock.dashboard.setDutySessionLength(session.id, 120);
      const before = dutyRequests(harness).length;
      await eventually(() => dutyRequests(harness).length >= before + 3, 20_000);
    }
    await eventually(() => ids.slice(0, 30).every((id) => roster.getDutyHours!(id) === 2), 20_000);
    const times = dutyRequests(harness).map((e) => e.time);
    for (const [i, t] of times.entries()) {
      const inWindow = times.slice(i).filter((u) => u < t + INTERVAL_SECONDS * 1000).length;
      expect(inWindow).toBeLessThanOrEqual(Math.ceil(250 / 100));
    }
    // Each request asked for up to 100 members with the member filter repeated from a start, or
    // for what the whole community stored since, with no member filter.
    for (const entry of dutyRequests(harness).slice(from)) {
      const query = new URLSearchParams(entry.query);
      expect(query.getAll('rosterRef').length).toBeLessThanOrEqual(100);
      if (query.getAll('rosterRef').length === 0) expect(query.get('startedAt.after')).toBeNull();
      expect(query.get('startedAt.after') ?? query.get('createdAt.after')).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(dutyRequests(harness).some((e) => e.query.includes('createdAt.after'))).toBe(true);
  });

  it('250 players online and known: one request per interval for what the community stored since, not one per 100 members', async () => {
    const harness = await start({ members: 400 });
    const members = harness.mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 250);
    const ids: number[] = [];
    for (let i = 0; i < members.length; i += 50)
      ids.push(...(await Promise.all(members.slice(i, i + 50).map((m) => join(harness, m)))));
    const roster = harness.caller.exports.roster!;
    await eventually(() => ids.every((id) => roster.getDutyHours!(id) !== null), 20_000);
    // Everyone is read in full: from the next request on, only what was stored since is asked.
    const full = dutyRequests(harness).length;
    await eventually(() => dutyRequests(harness).length >= full + 2, 20_000);
    const from = dutyRequests(harness).length;
    // Stored late for an online member: the one read finds it.
    const late = harness.mock.data.addDutySession(members[200]!.id, Date.now() - 3 * HOUR, 90, {
      storedAt: Date.now(),
    });
    await eventually(() => roster.getDutyHours!(ids[200]!) === 1.5, 20_000);
    await eventually(() => dutyRequests(harness).length >= from + 3, 20_000);
    const steady = dutyRequests(harness).slice(from);
    for (const entry of steady) {
      const query = new URLSearchParams(entry.query);
      expect(query.getAll('rosterRef')).toEqual([]);
      expect(query.get('createdAt.after')).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    const times = steady.map((e) => e.time);
    for (const [i, t] of times.entries())
      expect(times.slice(i).filter((u) => u < t + INTERVAL_SECONDS * 1000 - 100).length).toBe(1);
    expect(late.rosterRef).toBe(members[200]!.id);
  });
});
