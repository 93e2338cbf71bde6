import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn, type Harness, inFrames, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ready = (harness: Harness) => eventually(() => harness.logText().includes('connected to the roster'));

/** An ACTIVE member with exactly one department, and that department's short name. */
function activeMemberIn(harness: Harness, shortName: string) {
  const department = harness.mock.data.data.departments.find((d) => d.shortName === shortName)!;
  return harness.mock.data.members.find(
    (m) =>
      m.status === 'ACTIVE' &&
      harness.mock.data.assignmentsOf(m.id).length === 1 &&
      harness.mock.data.assignmentsOf(m.id)[0]!.departmentId === department.id,
  )!;
}

describe('join gate', () => {
  it('admits an active member with done() and refuses a stranger, telling them why', async () => {
    h = await startHarness();
    await ready(h);
    const member = h.mock.data.members[0]!;
    const alice = h.server.connectPlayer({ name: 'Alice', identifiers: [member.gameLicense, 'ip:10.0.0.1'] });
    const bob = h.server.connectPlayer({ name: 'Bob', identifiers: [strangerLicense] });
    const a = await alice.decision;
    expect(a).toMatchObject({ admitted: true });
    const refused = await bob.decision;
    expect(refused).toMatchObject({ admitted: false });
    expect(!refused.admitted && refused.reason).toMatch(/not on the San Andreas Roleplay roster/);
    expect(alice.updates[0]).toMatch(/Checking the San Andreas Roleplay roster/);
    // The refused player is forgotten at once; the admitted one is online under a final id.
    await eventually(() => h!.caller.exports.roster!.getMember!((a as { id: number }).id) !== null);
    h.server.executeCommand('roster status');
    await eventually(() => h!.logText().includes('players: 1/1 online loaded, 0 connecting'));
  });

  it('on a quiet server, exports answer in full as soon as the player has joined', async () => {
    h = await startHarness();
    await ready(h);
    const member = h.mock.data.members[0]!;
    const joined = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error('refused');
    const got = h.caller.exports.roster!.getMember!(joined.id) as {
      id: string;
      departments: unknown[];
    } | null;
    expect(got?.id).toBe(member.id);
    expect(got?.departments.length).toBe(h.mock.data.assignmentsOf(member.id).length);
  });

  it('reads exactly the license: identifier, never license2:', async () => {
    h = await startHarness();
    await ready(h);
    const member = h.mock.data.members[0]!;
    const license2Only = h.server.connectPlayer({
      name: 'Two',
      identifiers: [member.gameLicense.replace('license:', 'license2:'), 'fivem:1234'],
    });
    const decision = await license2Only.decision;
    expect(!decision.admitted && decision.reason).toMatch(/No Rockstar license/);
    const both = h.server.connectPlayer({
      name: 'Both',
      identifiers: [strangerLicense.replace('license:', 'license2:'), member.gameLicense],
    });
    expect(await both.decision).toMatchObject({ admitted: true });
  });

  it('refuses a player without a license at once, without asking the service', async () => {
    // Requests counted per join: the mirror's own background reads are not part of it.
    h = await startHarness({ config: { mirror: { enabled: false } } });
    await ready(h);
    const before = h.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0;
    const { value: decision, frames } = await inFrames(
      h.server,
      h.server.connectPlayer({ name: 'NoLicense', identifiers: ['ip:10.0.0.2'] }).decision,
    );
    expect(!decision.admitted && decision.reason).toMatch(/No Rockstar license/);
    // Decided on the next frame (deferral calls go out a tick after defer()), no request to wait for.
    expect(frames).toBeLessThanOrEqual(1);
    expect(h.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0).toBe(before);
  });

  it('lets players allowed the bypass ACE skip the gate', async () => {
    h = await startHarness({ aces: [[`identifier.${strangerLicense}`, 'roster.bypass', 'allow']] });
    await ready(h);
    const decision = await h.server.connectPlayer({ name: 'Staff', identifiers: [strangerLicense] }).decision;
    expect(decision).toMatchObject({ admitted: true });
  });

  it('decides by gate.requireStatus and names the status', async () => {
    h = await startHarness({ config: { gate: { requireStatus: ['ACTIVE', 'LOA'] } } });
    await ready(h);
    const [, suspended, loa] = h.mock.data.members;
    const s = await h.server.connectPlayer({ name: 'Sus', identifiers: [suspended!.gameLicense] }).decision;
    expect(!s.admitted && s.reason).toMatch(/status is SUSPENDED/);
    const l = await h.server.connectPlayer({ name: 'Loa', identifiers: [loa!.gameLicense] }).decision;
    expect(l).toMatchObject({ admitted: true });
  });

  it('requires one of gate.departments, by id, name or short name', async () => {
    h = await startHarness({ config: { gate: { departments: ['safr', 'Department of Nothing'] } } });
    await ready(h);
    const police = activeMemberIn(h, 'LSPD');
    const fire = activeMemberIn(h, 'SAFR');
    const p = await h.server.connectPlayer({ name: 'Cop', identifiers: [police.gameLicense] }).decision;
    expect(!p.admitted && p.reason).toMatch(/not in a department allowed/);
    const f = await h.server.connectPlayer({ name: 'Fire', identifiers: [fire.gameLicense] }).decision;
    expect(f).toMatchObject({ admitted: true });
  });

  it('with gate.enabled false admits everyone but still loads roster data', async () => {
    h = await startHarness({ config: { gate: { enabled: false } } });
    await ready(h);
    const member = h.mock.data.members[0]!;
    const stranger = await h.server.connectPlayer({ name: 'S', identifiers: [strangerLicense] }).decision;
    expect(stranger).toMatchObject({ admitted: true });
    const joined = await h.server.connectPlayer({ name: 'M', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error('member refused');
    const got = await eventually(
      () => (h!.caller.exports.roster!.getMember!(joined.id) as { id: string } | null) ?? undefined,
    );
    expect(got.id).toBe(member.id);
  });

  it('uses configured messages with placeholders', async () => {
    h = await startHarness({
      config: { gate: { messages: { notOnRoster: 'Sorry {player}, {community} says no.' } } },
    });
    await ready(h);
    const d = await h.server.connectPlayer({ name: 'Zed', identifiers: [strangerLicense] }).decision;
    expect(!d.admitted && d.reason).toBe('Sorry Zed, San Andreas Roleplay says no.');
  });
});

describe('when the service cannot answer', () => {
  const scaled = (onError: string) => ({ gate: { onError, timeoutSeconds: 2 }, api: { timeoutMs: 500 } });

  it('cached: admits a member known from before, refuses an unknown player as unavailable, not as "not on the roster"', async () => {
    h = await startHarness({ config: scaled('cached') });
    await ready(h);
    const member = h.mock.data.members[0]!;
    const first = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!first.admitted) throw new Error('not admitted');
    h.server.dropPlayer(first.id);
    h.mock.faults.internal();
    const known = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(known).toMatchObject({ admitted: true });
    const unknown = await h.server.connectPlayer({ name: 'U', identifiers: [strangerLicense] }).decision;
    expect(!unknown.admitted && unknown.reason).toMatch(/unavailable right now/);
    expect(!unknown.admitted && unknown.reason).not.toMatch(/not on the/);
  });

  it('cached: decides on the last known record however old', async () => {
    h = await startHarness({ config: { ...scaled('cached'), cache: { ttlSeconds: 1 } } });
    await ready(h);
    const member = h.mock.data.members[0]!;
    const suspended = h.mock.data.members[1]!;
    for (const m of [member, suspended])
      await h.server.connectPlayer({ name: 'x', identifiers: [m.gameLicense] }).decision;
    await new Promise((r) => setTimeout(r, 1100));
    h.mock.faults.failNext(1000, 503);
    const a = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(a).toMatchObject({ admitted: true });
    const s = await h.server.connectPlayer({ name: 'S', identifiers: [suspended.gameLicense] }).decision;
    expect(!s.admitted && s.reason).toMatch(/status is SUSPENDED/);
  });

  it('allow: admits when the service fails; deny: refuses as unavailable', async () => {
    h = await startHarness({ config: scaled('allow') });
    await ready(h);
    h.mock.faults.failNext(1000, 502);
    expect(
      await h.server.connectPlayer({ name: 'U', identifiers: [strangerLicense] }).decision,
    ).toMatchObject({
      admitted: true,
    });
    await h.close();
    h = await startHarness({ config: scaled('deny') });
    await ready(h);
    h.mock.faults.internal();
    const member = h.mock.data.members[3]!;
    const d = await h.server.connectPlayer({ name: 'M', identifiers: [member.gameLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
  });

  it('never refuses as "not on the roster" because of a 429', async () => {
    h = await startHarness({ config: scaled('cached') });
    await ready(h);
    h.mock.faults.rateLimit(1000, { retryAfter: 30 });
    const member = h.mock.data.members[0]!;
    const d = await h.server.connectPlayer({ name: 'M', identifiers: [member.gameLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
  });

  it('keeps the deadline when the service hangs', async () => {
    h = await startHarness({ config: { gate: { timeoutSeconds: 2 }, api: { timeoutMs: 60_000 } } });
    await ready(h);
    h.mock.faults.hang();
    const players = [0, 5, 6].map((i) =>
      h!.server.connectPlayer({ name: `P${i}`, identifiers: [h!.mock.data.members[i]!.gameLicense] }),
    );
    const { value: decisions, frames } = await inFrames(
      h.server,
      Promise.all(players.map((p) => p.decision)),
    );
    expect(frames).toBeLessThanOrEqual(framesIn(2));
    for (const d of decisions) expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
  });
});

describe('not set up', () => {
  it('fails closed without a key: refuses with the not-set-up message, exports answer emptily', async () => {
    h = await startHarness({ apiKey: '' });
    const member = h.mock.data.members[0]!;
    const d = await h.server.connectPlayer({ name: 'M', identifiers: [member.gameLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/roster check is not set up/);
    expect(h.logText()).toMatch(/roster_api_key is not set/);
    expect(h.caller.exports.roster!.getMember!(1)).toBeNull();
    expect(h.mock.counters.total).toBe(0);
  });

  it('fails closed on an invalid config.json, naming the key and accepted values', async () => {
    h = await startHarness({ config: { gate: { onError: 'sometimes' } } });
    const d = await h.server.connectPlayer({ name: 'M', identifiers: [strangerLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/not set up/);
    expect(h.logText()).toMatch(/gate\.onError must be one of "cached", "allow", "deny"/);
  });

  it('refuses a plain-http address that is not loopback', async () => {
    h = await startHarness({ baseUrl: 'http://roster.example.com' });
    expect(h.logText()).toMatch(/must use https/);
  });
});

describe('without the department list (key lacks departments:read)', () => {
  it('a department rule cannot be checked: gate.onError decides, never "not in a department"', async () => {
    h = await startHarness({ keyName: 'rosterOnly', config: { gate: { departments: ['LSPD'] } } });
    await ready(h);
    const police = activeMemberIn(h, 'LSPD');
    const d = await h.server.connectPlayer({ name: 'Cop', identifiers: [police.gameLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
  });

  it('with no department rule, members are still admitted on their status', async () => {
    h = await startHarness({ keyName: 'rosterOnly' });
    await ready(h);
    const d = await h.server.connectPlayer({ name: 'M', identifiers: [h.mock.data.members[0]!.gameLicense] })
      .decision;
    expect(d).toMatchObject({ admitted: true });
    expect(h.logText()).toMatch(/lacks the scope departments:read/);
  });
});
