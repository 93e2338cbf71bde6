import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptResource } from '../../../dev/emulator';
import {
  eventually,
  expectedMember,
  framesIn,
  type Harness,
  inFrames,
  startHarness,
  strangerLicense,
} from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ready = (harness: Harness) => eventually(() => harness.logText().includes('connected to the roster'));

/** An ACTIVE member holding exactly the rank `Sergeant` in one department, and that department. */
function sergeant(harness: Harness) {
  const { data } = harness.mock.data;
  for (const member of harness.mock.data.members) {
    if (member.status !== 'ACTIVE') continue;
    for (const assignment of harness.mock.data.assignmentsOf(member.id)) {
      const rank = assignment.rankId ? harness.mock.data.rank(assignment.rankId) : undefined;
      if (rank?.name !== 'Sergeant') continue;
      const department = data.departments.find((d) => d.id === assignment.departmentId)!;
      return { member, department };
    }
  }
  throw new Error('the seeded roster has no ACTIVE Sergeant');
}

interface SeenAtJoining {
  member: unknown;
  sergeant: unknown;
  bag: unknown;
}

/** Records what a second resource reads, synchronously, in its own playerJoining handler. */
function watchJoining(resource: ScriptResource, shortName: string): SeenAtJoining[] {
  const seen: SeenAtJoining[] = [];
  resource.on('playerJoining', () => {
    const src = Number(resource.global.source);
    const roster = resource.exports.roster!;
    seen.push({
      member: roster.getMember!(src),
      sergeant: roster.hasMinRank!(src, shortName, 'Sergeant'),
      bag: resource.eval(`Player(${src}).state.roster`),
    });
  });
  return seen;
}

function withoutLicense(member: ReturnType<typeof expectedMember>) {
  const { license: _license, ...rest } = member;
  return rest;
}

describe('known in full from the moment a player joins', () => {
  it("a second resource's playerJoining handler reads the full member, and hasMinRank Sergeant, synchronously", async () => {
    // FXServer's handler order: the caller registered after roster, so its handler runs first, as
    // a resource started after roster does on a server. The exports answer in full all the same;
    // the state bag is roster's to write in its own handler (the bag exists from the final id on).
    h = await startHarness();
    await ready(h);
    const { member, department } = sergeant(h);
    const seen = watchJoining(h.caller, department.shortName);
    const loaded: unknown[] = [];
    h.caller.on('roster:playerLoaded', (_src: unknown, loadedMember: unknown) => loaded.push(loadedMember));
    const joined = await h.server.connectPlayer({ name: 'Sgt', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error('refused');
    await eventually(() => seen.length === 1);
    const expected = expectedMember(h, member);
    expect(seen[0]!.member).toEqual(expected);
    expect(seen[0]!.sergeant).toBe(true);
    expect(seen[0]!.bag).toBeNull();
    expect(h.caller.eval(`Player(${joined.id}).state.roster`)).toEqual(withoutLicense(expected));
    expect(loaded).toEqual([expected]);
  });

  it("a resource that registered its playerJoining handler before roster's reads the state bag there too", async () => {
    h = await startHarness({ startResource: false });
    const early = h.server.createScriptResource('early');
    const { member, department } = sergeant(h);
    const seen = watchJoining(early, department.shortName);
    h.server.startResource('roster', h.folder);
    await ready(h);
    const joined = await h.server.connectPlayer({ name: 'Sgt', identifiers: [member.gameLicense] }).decision;
    expect(joined).toMatchObject({ admitted: true });
    await eventually(() => seen.length === 1);
    const expected = expectedMember(h, member);
    expect(seen[0]!.member).toEqual(expected);
    expect(seen[0]!.sergeant).toBe(true);
    expect(seen[0]!.bag).toEqual(withoutLicense(expected));
  });

  it('the first join right after start has the full record, and start-up work goes side by side', async () => {
    // The service holds every answer: whatever reaches it meanwhile was sent without waiting for
    // another request's answer.
    h = await startHarness({ beforeStart: (mock) => void mock.faults.hang() });
    const { member, department } = sergeant(h);
    const seen = watchJoining(h.caller, department.shortName);
    const connection = h.server.connectPlayer({ name: 'First', identifiers: [member.gameLicense] });
    const startUp = ['whoami', 'departments', 'ranks', 'members'].map((name) => `GET /api/v1/${name}`);
    await eventually(() => startUp.every((endpoint) => h!.mock.counters.byEndpoint()[endpoint] === 1));
    expect(h.mock.counters.log.every((entry) => entry.status === null)).toBe(true);
    h.mock.faults.hang(false);
    const { value: joined, frames } = await inFrames(h.server, connection.decision);
    expect(joined).toMatchObject({ admitted: true });
    await eventually(() => seen.length === 1);
    expect(seen[0]!.member).toEqual(expectedMember(h, member));
    expect(seen[0]!.sergeant).toBe(true);
    // From the answers to the decision: the assignments round trip and a few frames.
    expect(frames).toBeLessThan(framesIn(1));
  });

  it('when the departments request fails, cached decides on the last known record, never "no departments"', async () => {
    h = await startHarness({
      config: {
        gate: { onError: 'cached', timeoutSeconds: 3 },
        api: { timeoutMs: 500 },
        cache: { ttlSeconds: 1 },
        // Joins looked up one by one: the mirror would answer them without asking.
        mirror: { enabled: false },
      },
    });
    await ready(h);
    const { member, department } = sergeant(h);
    const first = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!first.admitted) throw new Error('not admitted');
    h.server.dropPlayer(first.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    h.mock.faults.failPath('/api/v1/department-assignments');
    const seen = watchJoining(h.caller, department.shortName);
    const again = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(again).toMatchObject({ admitted: true });
    await eventually(() => seen.length === 1);
    // The last known record in full: departments and rank, not the new members answer without them.
    expect(seen[0]!.member).toEqual(expectedMember(h, member));
    expect(seen[0]!.sergeant).toBe(true);
    // By the failure (after the client's retries) or by the deadline, whichever comes first.
    const basis = /A admitted \((service unavailable|no answer within 3s), last-known\)/;
    await eventually(() => basis.test(h!.logText()));
    // Someone on the roster never seen before: unavailable, not admitted without departments.
    const other = h.mock.data.members.find((m) => m.status === 'ACTIVE' && m.id !== member.id)!;
    const unknown = await h.server.connectPlayer({ name: 'B', identifiers: [other.gameLicense] }).decision;
    expect(!unknown.admitted && unknown.reason).toMatch(/unavailable right now/);
  });

  it('when the departments request fails, deny refuses as unavailable and allow admits', async () => {
    const config = (onError: string) => ({ gate: { onError, timeoutSeconds: 3 }, api: { timeoutMs: 500 } });
    h = await startHarness({ config: config('deny') });
    await ready(h);
    h.mock.faults.failPath('/api/v1/department-assignments');
    const { member } = sergeant(h);
    const denied = await h.server.connectPlayer({ name: 'D', identifiers: [member.gameLicense] }).decision;
    expect(!denied.admitted && denied.reason).toMatch(/unavailable right now/);
    await h.close();

    h = await startHarness({ config: config('allow') });
    await ready(h);
    h.mock.faults.failPath('/api/v1/department-assignments');
    const seen = watchJoining(h.caller, 'LSPD');
    const allowed = await h.server.connectPlayer({ name: 'L', identifiers: [member.gameLicense] }).decision;
    expect(allowed).toMatchObject({ admitted: true });
    await eventually(() => seen.length === 1);
    // Admitted by the policy with nothing known: no member yet, rather than one with no departments.
    expect(seen[0]!.member).toBeNull();
  });

  it('the deadline still holds when the departments request hangs', async () => {
    h = await startHarness({ config: { gate: { timeoutSeconds: 2 }, api: { timeoutMs: 60_000 } } });
    await ready(h);
    h.mock.faults.failPath('/api/v1/department-assignments', 'hang');
    const { member } = sergeant(h);
    const { value: decision, frames } = await inFrames(
      h.server,
      h.server.connectPlayer({ name: 'H', identifiers: [member.gameLicense] }).decision,
    );
    expect(frames).toBeLessThanOrEqual(framesIn(2));
    expect(!decision.admitted && decision.reason).toMatch(/unavailable right now/);
    const stranger = await h.server.connectPlayer({ name: 'S', identifiers: [strangerLicense] }).decision;
    expect(!stranger.admitted && stranger.reason).toMatch(/not on the/);
  });
});

describe('a stop or restart with players in the gate', () => {
  it('decides every open join by gate.onError at once: none hung', async () => {
    // Joins looked up one by one: the mirror would decide the members without asking.
    h = await startHarness({
      config: { gate: { onError: 'cached', timeoutSeconds: 30 }, mirror: { enabled: false } },
    });
    await ready(h);
    const known = h.mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 2);
    for (const m of known) {
      const d = await h.server.connectPlayer({ name: 'K', identifiers: [m.gameLicense] }).decision;
      if (d.admitted) h.server.dropPlayer(d.id);
    }
    // Everything hangs from now on; the cache still knows the two members (fresh), so those two are
    // answered at once: take strangers and members not seen before for the gate to hold.
    h.mock.faults.hang();
    const waiting = h.mock.data.members
      .filter((m) => !known.includes(m))
      .slice(0, 4)
      .map((m, i) => h!.server.connectPlayer({ name: `W${i}`, identifiers: [m.gameLicense] }));
    const stranger = h.server.connectPlayer({ name: 'S', identifiers: [strangerLicense] });
    let settled = 0;
    for (const connection of [...waiting, stranger]) void connection.decision.then(() => settled++);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(0);
    const restarted = h.server.frames;
    h.server.restartResource('roster');
    const decisions = await Promise.all([...waiting, stranger].map((c) => c.decision));
    // Decided inside onResourceStop itself: nothing of a stopped resource runs in a later frame.
    expect(h.server.frames - restarted).toBe(0);
    // cached, nothing known about them: unavailable (never "not on the roster").
    for (const d of decisions) expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
    await eventually(() => /refused \(the resource stopped, policy\)/.test(h!.logText()));
  });

  it('allow admits and cached admits a member known from before when the resource stops', async () => {
    h = await startHarness({
      config: { gate: { onError: 'cached', timeoutSeconds: 30 }, cache: { ttlSeconds: 1 } },
    });
    await ready(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const first = await h.server.connectPlayer({ name: 'K', identifiers: [member.gameLicense] }).decision;
    if (first.admitted) h.server.dropPlayer(first.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    h.mock.faults.hang();
    const known = h.server.connectPlayer({ name: 'K', identifiers: [member.gameLicense] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    h.server.stopResource('roster');
    expect(await known.decision).toMatchObject({ admitted: true });
    await h.close();

    h = await startHarness({ config: { gate: { onError: 'allow', timeoutSeconds: 30 } } });
    await ready(h);
    h.mock.faults.hang();
    const anyone = h.server.connectPlayer({ name: 'U', identifiers: [strangerLicense] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    h.server.stopResource('roster');
    expect(await anyone.decision).toMatchObject({ admitted: true });
  });
});

describe('whatever order FXServer runs playerJoining handlers in', () => {
  it('a resource whose handler runs before roster moves the player still reads the full member', async () => {
    // FXServer runs the resource that registered for an event last first (its event map inserts a
    // new resource before the others): here \`early\` registers after roster has, so it runs first.
    h = await startHarness({ startResource: false });
    const early = h.server.createScriptResource('early');
    h.server.startResource('roster', h.folder);
    await ready(h);
    const { member, department } = sergeant(h);
    const seen: unknown[] = [];
    early.on('playerJoining', () => {
      const src = Number(early.global.source);
      const roster = early.exports.roster!;
      seen.push([roster.getMember!(src), roster.hasMinRank!(src, department.shortName, 'Sergeant')]);
    });
    const joined = await h.server.connectPlayer({ name: 'Sgt', identifiers: [member.gameLicense] }).decision;
    expect(joined).toMatchObject({ admitted: true });
    await eventually(() => seen.length === 1);
    expect(seen[0]).toEqual([expectedMember(h, member), true]);
    // Still a stranger's id answers null, and the final id answers once roster has moved the player.
    expect(h.caller.exports.roster!.getMember!(4242)).toBeNull();
    if (joined.admitted)
      expect(h.caller.exports.roster!.getMember!(joined.id)).toEqual(expectedMember(h, member));
  });
});
