import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mirrored = (harness: Harness) =>
  eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
const requests = (harness: Harness) => harness.mock.counters.total;

/** An audit entry the resource cannot read (nested deeper than it looks): what it said is lost. */
function unreadableEntry(): Record<string, unknown> {
  let value: unknown = 'mem_000001';
  for (let depth = 0; depth < 40; depth++) value = { inner: value };
  return { id: `aud_deep_${Date.now()}`, action: 'member.update', details: value };
}

/** Runs `roster status` until its mirror line names `pattern`; returns that line. */
async function statusUntil(harness: Harness, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const from = harness.server.log.lines.length;
    harness.server.executeCommand('roster status');
    const line = await eventually(() =>
      harness.server.log.lines.slice(from).find((l) => l.includes('mirror:')),
    );
    if (pattern.test(line)) return line;
    if (Date.now() > deadline) throw new Error(`roster status still says: ${line}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `roster doctor` once and returns its mirror line. */
async function doctorMirrorLine(harness: Harness): Promise<string> {
  const from = harness.server.log.lines.length;
  harness.server.executeCommand('roster doctor');
  return eventually(() => harness.server.log.lines.slice(from).find((l) => /[✓!✗…] mirror/.test(l)), 15_000);
}

describe('a mirror that never decides on a record it has reason to doubt', () => {
  it('a member suspended while the first full read runs, after their page was read, is refused: the change is not lost to the read', async () => {
    h = await startHarness({
      config: { api: { timeoutMs: 15_000 }, refresh: { intervalSeconds: 3600, auditSeconds: 1 } },
      // The members are read, then the assignments wait: the read is under way, past the members.
      beforeStart: (mock) => {
        mock.faults.failPath('/api/v1/department-assignments', 'hang');
      },
    });
    await eventually(() => (h!.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0) >= 2, 10_000);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const changedAt = Date.now();
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    // The audit log names the member (not held by anything yet) while the read runs.
    await eventually(
      () =>
        h!.mock.counters.log.filter((e) => e.path === '/api/v1/audit-logs' && e.time > changedAt).length >= 2,
      10_000,
    );
    h.mock.faults.clear();
    await mirrored(h);
    const decision = await h.server.connectPlayer({ name: 'Mid', identifiers: [member.gameLicense] })
      .decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
  });

  it('a gap in the audit log: joins are looked up at once, a suspension in it is refused, and the mirror decides again after a full read begun after it', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    await mirrored(h);
    // The full read the gap asks for cannot complete yet: the mirror is left with what it held.
    h.mock.faults.failPath('/api/v1/department-assignments', 'hang');
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    // Suspended, and the entry that says so cannot be read.
    h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    h.mock.data.appendRawAudit(unreadableEntry());
    await eventually(() => h!.logText().includes('the audit log could not be read in full'), 10_000);
    const before = requests(h);
    const decision = await h.server.connectPlayer({ name: 'Gap', identifiers: [member.gameLicense] })
      .decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
    expect(requests(h)).toBeGreaterThan(before);
    expect(await statusUntil(h, /gap/)).toMatch(
      /a gap in the audit log \d+ s ago \(skipped .*nested deeper than 32 levels\): not deciding until the full read begun after it completes/,
    );
    // The full read begun after the gap completes: members are decided from the mirror again.
    h.mock.faults.clear();
    await statusUntil(h, /ended by a full read/, 15_000);
    expect(await doctorMirrorLine(h)).toMatch(
      /✓ mirror holds \d+ members, .*last gap in the audit log \d+ s ago \(skipped .*\), ended by a full read \d+ s later/,
    );
    const other = h.mock.data.members.find((m) => m.status === 'ACTIVE' && m.id !== member.id)!;
    const quiet = requests(h);
    const admitted = await h.server.connectPlayer({ name: 'After', identifiers: [other.gameLicense] })
      .decision;
    expect(admitted).toMatchObject({ admitted: true });
    expect(requests(h)).toBe(quiet);
  });

  it("in an outage the newest record decides: a suspension the mirror's full read found wins over the cache's older answer", async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    await mirrored(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const roster = h.caller.exports.roster!;
    // The audit log cannot be read: the mirror stops deciding, and a lookup caches the member ACTIVE.
    h.mock.faults.failPath('/api/v1/audit-logs');
    await statusUntil(h, /not been read to its end lately/);
    expect(((await roster.lookupLicense!(member.gameLicense)) as { status: string }).status).toBe('ACTIVE');
    // Suspended in the dashboard; the change reaches the mirror only through a full read (after a gap).
    h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    h.mock.faults.clear();
    h.mock.data.appendRawAudit(unreadableEntry());
    await statusUntil(h, /ended by a full read/, 15_000);
    // Now the service is down, and the mirror is out of step again: the outage policy decides.
    h.mock.faults.failPath('/api/v1/members').failPath('/api/v1/audit-logs');
    await statusUntil(h, /not been read to its end lately/);
    const decision = await h.server.connectPlayer({ name: 'Out', identifiers: [member.gameLicense] })
      .decision;
    expect(!decision.admitted && decision.reason).toMatch(/SUSPENDED/);
  });

  it('one license, two memberships: the most recent (ACTIVE) decides from the mirror, with no request', async () => {
    let returning = '';
    h = await startHarness({
      config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } },
      beforeStart: (mock) => {
        const old = mock.data.members.find((m) => m.status === 'ACTIVE')!;
        mock.data.setMemberStatus(old.id, 'TERMINATED');
        const lspd = mock.data.data.departments.find((d) => d.shortName === 'LSPD')!;
        mock.data.addMember({ gameLicense: old.gameLicense, status: 'ACTIVE', departmentId: lspd.id });
        returning = old.gameLicense;
      },
    });
    await mirrored(h);
    const before = requests(h);
    const decision = await h.server.connectPlayer({ name: 'Back', identifiers: [returning] }).decision;
    expect(decision).toMatchObject({ admitted: true });
    expect(requests(h)).toBe(before);
    // Said once, and roster doctor lists the license with the membership that decides.
    expect(h.logText().match(/The roster lists 2 members for license:/g)).toHaveLength(1);
    const from = h.server.log.lines.length;
    h.server.executeCommand('roster doctor');
    const listed = await eventually(
      () => h!.server.log.lines.slice(from).find((l) => /^\[roster\]\s+license:\S+: \S+ decides/.test(l)),
      15_000,
    );
    const renewed = h.mock.data.members.filter((m) => m.gameLicense === returning).at(-1)!;
    expect(listed).toContain(`${renewed.id} decides`);
  });
});
