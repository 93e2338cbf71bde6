import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCOPE_RECHECK_MS } from '../../../src/features/key-check/index';
import { eventually, type Harness, inFrames, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ready = (harness: Harness) => eventually(() => harness.logText().includes('connected to the roster'));
const mirrored = (harness: Harness) =>
  eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
const members = (harness: Harness) => harness.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0;

/** Runs `roster status` and returns the mirror's line. */
async function statusLine(harness: Harness): Promise<string> {
  const from = harness.server.log.lines.length;
  harness.server.executeCommand('roster status');
  return eventually(() => harness.server.log.lines.slice(from).find((line) => line.includes('mirror:')));
}

describe('the roster on the server', () => {
  it('decides a known member from the mirror: no request, within a frame', async () => {
    h = await startHarness();
    await mirrored(h);
    const member = h.mock.data.members[0]!;
    const before = h.mock.counters.total;
    const { value: decision, frames } = await inFrames(
      h.server,
      h.server.connectPlayer({ name: 'Alice', identifiers: [member.gameLicense] }).decision,
    );
    expect(decision).toMatchObject({ admitted: true });
    expect(frames).toBeLessThanOrEqual(1);
    expect(h.mock.counters.total).toBe(before);
    // The joined player's exports hold the full member, as after a lookup.
    if (!decision.admitted) throw new Error('refused');
    const got = await eventually(
      () =>
        (h!.caller.exports.roster!.getMember!(decision.id) as {
          id: string;
          departments: unknown[];
        } | null) ?? undefined,
    );
    expect(got.id).toBe(member.id);
    expect(got.departments).toHaveLength(h.mock.data.assignmentsOf(member.id).length);
    expect(h.mock.counters.total).toBe(before);
  });

  it('a member never seen on this server, suspended in the dashboard, is refused at their first join', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    await mirrored(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    // The feed names the member by id; the mirror finds their license and reads them again. What
    // the resource holds is asked through lookupLicense, which the mirror answers with no request.
    const roster = h.caller.exports.roster!;
    for (let polls = 0; ; polls++) {
      const held = (await roster.lookupLicense!(member.gameLicense)) as { status: string } | null;
      if (held?.status === 'SUSPENDED') break;
      if (polls === 200) throw new Error(`still ${held?.status} after the dashboard change`);
      await h.server.nextTick();
    }
    const before = h.mock.counters.total;
    const decision = await h.server.connectPlayer({ name: 'Away', identifiers: [member.gameLicense] })
      .decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
    expect(h.mock.counters.total).toBe(before);
  });

  it('with the audit log unreadable, stops deciding from the mirror within 2.5 audit intervals: a member suspended meanwhile is looked up and refused', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    await mirrored(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    h.mock.faults.failPath('/api/v1/audit-logs');
    const failedAt = Date.now();
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    const roster = h.caller.exports.roster!;
    let status: string | undefined;
    for (let polls = 0; polls < 2_000; polls++) {
      status = ((await roster.lookupLicense!(member.gameLicense)) as { status: string } | null)?.status;
      if (status === 'SUSPENDED') break;
      await h.server.nextTick();
    }
    expect(status).toBe('SUSPENDED');
    const auditReads = h.mock.counters.log.filter(
      (e) => e.path === '/api/v1/audit-logs' && e.time >= failedAt,
    );
    // The mirror answered ACTIVE only while the feed could still be in step: at most 2.5 reads.
    expect(auditReads.length).toBeLessThanOrEqual(4);
    const decision = await h.server.connectPlayer({ name: 'S', identifiers: [member.gameLicense] }).decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
  });

  it('a member whose license changed in the dashboard: the old license is not admitted from the mirror, the new one is looked up', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    await mirrored(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const oldLicense = member.gameLicense;
    const newLicense = h.mock.data.nonMemberLicense(3);
    (member as { gameLicense: string }).gameLicense = newLicense;
    h.mock.data.appendEntry({ action: 'member.update', resourceType: 'member', resourceId: member.id });
    const roster = h.caller.exports.roster!;
    for (let polls = 0; (await roster.lookupLicense!(oldLicense)) !== null; polls++) {
      if (polls === 2_000) throw new Error('the old license is still held');
      await h.server.nextTick();
    }
    const old = await h.server.connectPlayer({ name: 'Old', identifiers: [oldLicense] }).decision;
    expect(!old.admitted && old.reason).toMatch(/not on the San Andreas Roleplay roster/);
    const before = h.mock.counters.total;
    const renewed = await h.server.connectPlayer({ name: 'New', identifiers: [newLicense] }).decision;
    expect(renewed).toMatchObject({ admitted: true });
    expect(h.mock.counters.total).toBeGreaterThan(before);
  });

  it('a member deleted from the roster is removed from the mirror: their next join is refused as not on the roster', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    await mirrored(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    h.mock.data.removeMember(member.id);
    h.mock.data.appendEntry({ action: 'member.delete', resourceType: 'member', resourceId: member.id });
    const roster = h.caller.exports.roster!;
    for (let polls = 0; (await roster.lookupLicense!(member.gameLicense)) !== null; polls++) {
      if (polls === 2_000) throw new Error('the deleted member is still held');
      await h.server.nextTick();
    }
    const decision = await h.server.connectPlayer({ name: 'Gone', identifiers: [member.gameLicense] })
      .decision;
    expect(!decision.admitted && decision.reason).toMatch(/not on the San Andreas Roleplay roster/);
  });

  it('refuses a member the mirror holds with a refused status, with no request', async () => {
    h = await startHarness();
    await mirrored(h);
    const suspended = h.mock.data.members[1]!;
    const before = h.mock.counters.total;
    const decision = await h.server.connectPlayer({ name: 'S', identifiers: [suspended.gameLicense] })
      .decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
    expect(h.mock.counters.total).toBe(before);
  });

  it('still asks the service about a stranger and about a member added after the read', async () => {
    h = await startHarness();
    await mirrored(h);
    const before = members(h);
    const stranger = await h.server.connectPlayer({ name: 'S', identifiers: [strangerLicense] }).decision;
    expect(!stranger.admitted && stranger.reason).toMatch(/not on the San Andreas Roleplay roster/);
    expect(members(h)).toBe(before + 1);
    const lspd = h.mock.data.data.departments.find((d) => d.shortName === 'LSPD')!;
    const added = h.mock.data.addMember({ departmentId: lspd.id });
    const joined = await h.server.connectPlayer({ name: 'New', identifiers: [added.gameLicense] }).decision;
    expect(joined).toMatchObject({ admitted: true });
    expect(members(h)).toBe(before + 2);
    // The answer joined the mirror.
    const status = await statusLine(h);
    expect(status).toMatch(/mirror: 201 members held/);
  });

  it('reads the whole roster in the background, paged, within half the key minute', async () => {
    h = await startHarness({ members: 450 });
    await mirrored(h);
    const pages = h.mock.counters.log.filter(
      (e) => e.path === '/api/v1/members' && new URLSearchParams(e.query).has('page'),
    );
    // Read by key: each page asked after the newest stamp read, the last one newest first.
    const asked = pages.map((e) => new URLSearchParams(e.query));
    const after = asked.map((q) => q.get('createdAt.after'));
    expect(after[0]).toBeNull();
    expect(after.slice(1, 4)).toEqual([...after.slice(1, 4)].sort());
    expect(asked.map((q) => q.get('sort'))).toEqual([
      'createdAt',
      'createdAt',
      'createdAt',
      'createdAt',
      '-createdAt',
    ]);
    const paced = h.mock.counters.log.filter((e) => new URLSearchParams(e.query).has('page'));
    expect(paced.every((e) => e.keyId === h!.mock.keyId('full'))).toBe(true);
    expect(paced.length).toBeGreaterThanOrEqual(10);
    const line = await statusLine(h);
    expect(line).toMatch(
      /^.*mirror: 450 members held, last full read \d+ s ago; last audit catch-up (not yet|\d+ s ago); \d+ request\(s\) today/,
    );
  });

  it('without audit:read on the key, stays off and every join is looked up', async () => {
    h = await startHarness({ keyName: 'rosterWrite' });
    await ready(h);
    const member = h.mock.data.members[0]!;
    const before = members(h);
    const decision = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(decision).toMatchObject({ admitted: true });
    expect(members(h)).toBe(before + 1);
    expect(await statusLine(h)).toMatch(/mirror: off \(the key lacks audit:read/);
    const pages = h.mock.counters.log.filter((e) => new URLSearchParams(e.query).has('page'));
    expect(pages).toEqual([]);
  });

  it('starts once audit:read is added to the key, with no restart', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const harness = await startHarness({ keyName: 'rosterWrite' });
      h = harness;
      await ready(harness);
      expect(await statusLine(harness)).toMatch(/mirror: off \(the key lacks audit:read/);
      const whoami = () => harness.mock.counters.byEndpoint()['GET /api/v1/whoami'] ?? 0;
      // Checked again a quarter of an hour later; nothing changed, nothing starts.
      await vi.advanceTimersByTimeAsync(SCOPE_RECHECK_MS + 1_000);
      await eventually(() => whoami() === 2);
      expect(harness.logText()).not.toContain('audit:read now');
      harness.mock.keyRecords.find((k) => k.name === 'rosterWrite')!.scopes.push('audit:read');
      await vi.advanceTimersByTimeAsync(SCOPE_RECHECK_MS + 1_000);
      await eventually(() => harness.logText().includes('the key has audit:read now'));
      await mirrored(harness);
      const member = harness.mock.data.members.find((m, i) => i > 0 && m.status === 'ACTIVE')!;
      const before = members(harness);
      const decision = await harness.server.connectPlayer({ name: 'B', identifiers: [member.gameLicense] })
        .decision;
      expect(decision).toMatchObject({ admitted: true });
      expect(members(harness)).toBe(before);
      // With audit:read the key is not checked again.
      const checks = whoami();
      await vi.advanceTimersByTimeAsync(SCOPE_RECHECK_MS + 1_000);
      expect(whoami()).toBe(checks);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with mirror.enabled false, stays off and every join is looked up', async () => {
    h = await startHarness({ config: { mirror: { enabled: false } } });
    await ready(h);
    const member = h.mock.data.members[0]!;
    const before = members(h);
    const decision = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(decision).toMatchObject({ admitted: true });
    expect(members(h)).toBe(before + 1);
    expect(await statusLine(h)).toMatch(/mirror: off \(mirror\.enabled is false\)/);
  });

  it('roster doctor says what the mirror holds', async () => {
    h = await startHarness();
    await mirrored(h);
    const from = h.server.log.lines.length;
    h.server.executeCommand('roster doctor');
    const line = await eventually(
      () => h!.server.log.lines.slice(from).find((l) => l.includes('mirror holds')),
      10_000,
    );
    expect(line).toMatch(/✓ mirror holds 200 members, last full read \d+ s ago/);
  });
});
