/**
 * Duty sessions that change after the resource read them, from the built bundle against the mock
 * service: a session stored hours after it began, one whose length staff correct in the dashboard,
 * one they delete. Each shows in `getDutyHours` and the `hours` command at the next refresh.
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
  harness.mock.counters.log.filter((e) => e.endpoint === 'GET /api/v1/duty-sessions').length;

async function start(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const harness = await startHarness({
    config: { refresh: { intervalSeconds: INTERVAL_SECONDS, auditSeconds: 1 } },
    ...options,
  });
  h = harness;
  // Without audit:read there is no roster mirror: joins are looked up.
  await eventually(
    () => /the roster mirror holds \d+ members|the roster is not kept on the server/.test(harness.logText()),
    10_000,
  );
  return harness;
}

/** Joins `member` and waits until their hours are known: `hours` for 7 days. */
async function onDutyMember(harness: Harness, member: MockMember, hours: number): Promise<number> {
  const decision = await harness.server.connectPlayer({
    name: member.displayName,
    identifiers: [member.gameLicense],
  }).decision;
  if (!decision.admitted) throw new Error(`${member.id} refused: ${decision.reason}`);
  await eventually(() => harness.caller.exports.roster!.getDutyHours!(decision.id) === hours, 10_000);
  return decision.id;
}

/**
 * Waits until the player's hours for 7 days are `hours`, then asks `hours <id>` in the console:
 * the answer says the same. Returns the duty-sessions requests sent since `from`.
 */
async function reflected(harness: Harness, id: number, hours: number, from: number): Promise<number> {
  const roster = harness.caller.exports.roster!;
  await eventually(() => roster.getDutyHours!(id) === hours, 10_000);
  const sent = dutyRequests(harness) - from;
  const before = harness.server.log.lines.length;
  harness.server.executeCommand(`hours ${id}`);
  await eventually(() =>
    harness.server.log.lines.slice(before).some((l) => l.includes(`${hours} h on duty in the last 7 days`)),
  );
  return sent;
}

function activeMember(harness: Harness): MockMember {
  return harness.mock.data.members.find((m) => m.status === 'ACTIVE')!;
}

describe('duty sessions that change after they were read', () => {
  it('a session stored 3 h after it began counts at the next refresh', async () => {
    const harness = await start();
    const member = activeMember(harness);
    const now = Date.now();
    harness.mock.data.addDutySession(member.id, now - DAY, 60);
    const id = await onDutyMember(harness, member, 1);
    // Read at least once more since: the member's reads have moved on past the late session's start.
    const from = dutyRequests(harness);
    await eventually(() => dutyRequests(harness) > from, 10_000);

    // A CAD posts the whole shift at clock-out: began 3 h ago, stored now.
    const posted = Date.now();
    harness.mock.data.addDutySession(member.id, posted - 3 * HOUR, 180, { storedAt: posted });
    const sent = await reflected(harness, id, 4, dutyRequests(harness));
    expect(sent).toBeLessThanOrEqual(2);
    expect(harness.caller.exports.roster!.getDutyHours!(id, 30)).toBe(4);
  });

  it('a session staff correct in the dashboard counts as corrected, whatever shape the entry takes', async () => {
    const harness = await start();
    const member = activeMember(harness);
    const session = harness.mock.data.addDutySession(member.id, Date.now() - 2 * DAY, 60);
    const id = await onDutyMember(harness, member, 1);
    // Five corrections in a row write their entries in every shape the dashboard uses, one of which
    // names only the member (not the session).
    const shapes = new Set<string>();
    for (const hours of [4, 2.5, 6, 3, 5]) {
      shapes.add(harness.mock.dashboard.nextShape);
      const from = dutyRequests(harness);
      harness.mock.dashboard.setDutySessionLength(session.id, hours * 60);
      expect(await reflected(harness, id, hours, from)).toBeLessThanOrEqual(2);
    }
    expect(shapes.size).toBe(5);
    // One member online is a budget of one request a refresh: the member's full read and the read
    // of what the community stored since take turns, so each correction may wait two refreshes.
  }, 40_000);

  it('a session staff delete counts no more', async () => {
    const harness = await start();
    const member = activeMember(harness);
    const now = Date.now();
    harness.mock.data.addDutySession(member.id, now - 2 * DAY, 90);
    const mistake = harness.mock.data.addDutySession(member.id, now - DAY, 120);
    const id = await onDutyMember(harness, member, 3.5);
    const from = dutyRequests(harness);
    harness.mock.dashboard.deleteDutySession(mistake.id);
    expect(await reflected(harness, id, 1.5, from)).toBeLessThanOrEqual(2);
    harness.server.executeCommand('roster doctor');
    await eventually(() =>
      /1 member\(s\) complete \(1 read again in full after the audit log named their sessions\)/.test(
        harness.logText(),
      ),
    );
    expect(harness.logText()).toContain('corrections and deletions count at the next refresh');
  });

  it('without audit:read, roster doctor says corrections and deletions are not seen', async () => {
    const harness = await start({
      beforeStart: (mock) => {
        const full = mock.keyRecords.find((k) => k.name === 'full')!;
        full.scopes = full.scopes.filter((s) => s !== 'audit:read');
      },
    });
    const member = activeMember(harness);
    await onDutyMember(harness, member, 0);
    harness.server.executeCommand('roster doctor');
    await eventually(() => harness.logText().includes('! duty hours: the audit log is not read'));
  });
});
