import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Loaded {
  src: unknown;
  member: { id: string } | null;
}

function recordEvents(harness: Harness) {
  const loaded: Loaded[] = [];
  const updated: {
    src: unknown;
    member: { status: string; departments: unknown[] } | null;
    previous: unknown;
  }[] = [];
  const ready: unknown[] = [];
  harness.caller.on('roster:playerLoaded', (src: unknown, member: unknown) =>
    loaded.push({ src, member: member as Loaded['member'] }),
  );
  harness.caller.on('roster:playerUpdated', (src: unknown, member: unknown, previous: unknown) =>
    updated.push({ src, member: member as (typeof updated)[number]['member'], previous }),
  );
  harness.caller.on('roster:ready', (info: unknown) => ready.push(info));
  return { loaded, updated, ready };
}

async function joinMember(harness: Harness, index: number, name = `P${index}`) {
  const member = harness.mock.data.members[index]!;
  const decision = await harness.server.connectPlayer({ name, identifiers: [member.gameLicense] }).decision;
  if (!decision.admitted) throw new Error(`${name} refused: ${decision.reason}`);
  return { id: decision.id, member };
}

describe('player lifecycle', () => {
  it('announces roster:ready with the community and scopes', async () => {
    h = await startHarness({ startResource: false });
    const events = recordEvents(h);
    h.server.startResource('roster', h.folder);
    await eventually(() => events.ready.length === 1);
    expect(events.ready[0]).toMatchObject({ community: 'San Andreas Roleplay' });
    expect((events.ready[0] as { scopes: string[] }).scopes).toContain('roster:read');
  });

  // FXServer can admit a client that then never loads (game closed on the loading screen): no
  // playerJoining and no playerDropped ever come (GameServer.cpp fires playerDropped only for
  // clients that connected), so only the registry's sweep (15 min, checked every minute) forgets it.
  it('a client admitted that never loads is swept', async () => {
    // Fake time that also follows real time, so the mock service's real I/O still gets answered.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      h = await startHarness();
      const harness = h;
      await eventually(() => harness.logText().includes('connected to the roster'));
      const member = harness.mock.data.members[0]!;
      const ghost = harness.server.connectPlayer({
        name: 'Ghost',
        identifiers: [member.gameLicense],
        loads: false,
      });
      expect(await ghost.admission).toBe(true);
      const getMember = (src: number) =>
        harness.caller.exports.roster!.getMember!(src) as { id: string } | null;
      expect(getMember(ghost.tempId)).toMatchObject({ id: member.id });
      const status = async () => {
        const before = harness.server.log.lines.length;
        harness.server.executeCommand('roster status');
        const lines = () => harness.server.log.lines.slice(before).join('\n');
        return eventually(() => lines().includes('players:') && lines());
      };
      expect(await status()).toContain('0/0 online loaded, 1 connecting');
      await vi.advanceTimersByTimeAsync(14 * 60_000);
      expect(getMember(ghost.tempId)).toMatchObject({ id: member.id });
      await vi.advanceTimersByTimeAsync(2 * 60_000 + 1000);
      expect(getMember(ghost.tempId)).toBeNull();
      expect(await status()).toContain('0/0 online loaded, 0 connecting');
      expect(harness.server.playerList()).toEqual([]);
      await harness.close();
      h = undefined;
    } finally {
      vi.useRealTimers();
    }
  });

  it('moves a connecting player to the final id, fires playerLoaded once and sets the state bag', async () => {
    h = await startHarness();
    const events = recordEvents(h);
    const connection = h.server.connectPlayer({
      name: 'A',
      identifiers: [h.mock.data.members[0]!.gameLicense],
    });
    const decision = await connection.decision;
    if (!decision.admitted) throw new Error('refused');
    await eventually(() => events.loaded.length === 1);
    expect(events.loaded[0]).toMatchObject({ src: decision.id, member: { id: h.mock.data.members[0]!.id } });
    expect(h.caller.exports.roster!.getMember!(decision.id)).toMatchObject({
      id: h.mock.data.members[0]!.id,
    });
    expect(h.caller.exports.roster!.getMember!(connection.tempId)).toBeNull();
    const bag = h.caller.eval<{ id: string; license?: string }>(`Player(${decision.id}).state.roster`);
    expect(bag.id).toBe(h.mock.data.members[0]!.id);
    expect(bag).not.toHaveProperty('license');
    await new Promise((r) => setTimeout(r, 50));
    expect(events.loaded).toHaveLength(1);
  });

  it('forgets a player when they drop', async () => {
    h = await startHarness();
    const { id } = await joinMember(h, 0);
    await eventually(() => h!.caller.exports.roster!.getMember!(id) !== null);
    h.server.dropPlayer(id);
    expect(h.caller.exports.roster!.getMember!(id)).toBeNull();
  });

  it('after a restart with players online, loads every connected player again', async () => {
    h = await startHarness();
    const players = [await joinMember(h, 0), await joinMember(h, 5), await joinMember(h, 6)];
    for (const p of players) await eventually(() => h!.caller.exports.roster!.getMember!(p.id) !== null);
    const events = recordEvents(h);
    h.server.restartResource('roster');
    await eventually(() => events.loaded.length === 3);
    // main.js drops the caller's cached exports of the old instance only on the next frame's
    // onServerResourceStop; until then a call reaches the stopped one and fails, as in FXServer.
    await h.server.nextTick();
    for (const p of players) {
      expect((h.caller.exports.roster!.getMember!(p.id) as { id: string }).id).toBe(p.member.id);
    }
  });

  it('refresh fires playerUpdated for a rank change, a suspension and a removal; the resource does not kick', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 1 } } });
    const events = recordEvents(h);
    const promoted = await joinMember(h, 0);
    const suspended = await joinMember(h, 5);
    const removed = await joinMember(h, 6);
    await eventually(() => events.loaded.length === 3);
    const assignment = h.mock.data.assignmentsOf(promoted.member.id).find((a) => a.isPrimary)!;
    const chief = h.mock.data.data.ranks.find(
      (r) => r.departmentId === assignment.departmentId && r.position === 1,
    )!;
    h.mock.data.setAssignmentRank(assignment.id, chief.id);
    h.mock.data.setMemberStatus(suspended.member.id, 'SUSPENDED');
    h.mock.data.removeMember(removed.member.id);
    await eventually(() => events.updated.length === 3, 8000);
    const bySrc = new Map(events.updated.map((e) => [e.src, e]));
    const rankOf = (m: unknown) =>
      (m as { departments: { id: string; rank: { name: string } | null }[] }).departments.find(
        (d) => d.id === assignment.departmentId,
      )?.rank?.name;
    expect(rankOf(bySrc.get(promoted.id)!.member)).toBe(chief.name);
    expect(rankOf(bySrc.get(promoted.id)!.previous)).not.toBe(chief.name);
    expect(bySrc.get(suspended.id)!.member!.status).toBe('SUSPENDED');
    expect(bySrc.get(removed.id)!.member).toBeNull();
    expect(h.caller.eval(`Player(${removed.id}).state.roster`)).toBeNull();
    expect(h.server.playerList().map((p) => p.id)).toEqual(
      expect.arrayContaining([promoted.id, suspended.id, removed.id]),
    );
  });
});

describe('a refused key', () => {
  it('is reported once while it stays refused, and the resource connects by itself once it works', async () => {
    // Fake time that also follows real time, so the mock service's real I/O still gets answered.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      h = await startHarness({ keyName: 'revoked', startResource: false });
      const harness = h;
      const events = recordEvents(harness);
      harness.server.startResource('roster', harness.folder);
      const refusals = () => harness.server.log.of('roster').filter((l) => l.includes('was refused'));
      await eventually(() => refusals().length > 0);
      // Five minutes: the key re-checked five times, and every start retry and catalog reload due.
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      const member = harness.mock.data.members[0]!;
      const d = await harness.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
      expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
      expect(refusals()).toEqual([
        expect.stringMatching(
          /^ERROR: The roster API key was refused: .* Requests are stopped; the key is re-checked every minute\.$/,
        ),
      ]);
      expect(harness.logText()).not.toMatch(
        /could not verify the key|could not load departments|lookup failed/,
      );

      harness.mock.keyRecords.find((k) => k.name === 'revoked')!.revoked = false;
      await vi.advanceTimersByTimeAsync(60_000);
      await eventually(() => events.ready.length === 1);
      expect(harness.logText()).toContain('The roster API key works again; requests resume.');
      expect(harness.logText()).toContain('connected to the roster of "San Andreas Roleplay".');
      expect(refusals()).toHaveLength(1);
      await harness.close();
      h = undefined;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('snapshot', () => {
  it('a server restarted during an outage still admits known members, and the file holds no key', async () => {
    // The cache's last-known members alone: the roster mirror, saved too, would know every member.
    h = await startHarness({
      config: { gate: { timeoutSeconds: 2 }, api: { timeoutMs: 500 }, mirror: { enabled: false } },
    });
    const { member, id } = await joinMember(h, 0);
    await eventually(() => h!.caller.exports.roster!.getMember!(id) !== null);
    h.server.stopResource('roster');
    const file = join(h.folder, 'roster-snapshot.json');
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(member.gameLicense);
    expect(text).not.toContain(h.mock.keys.full!.split('_')[2]!);
    expect(readdirSync(h.folder).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    h.mock.faults.internal();
    h.server.startResource('roster', h.folder);
    const again = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(again).toMatchObject({ admitted: true });
    const other = h.mock.data.members[5]!;
    const unknown = await h.server.connectPlayer({ name: 'B', identifiers: [other.gameLicense] }).decision;
    expect(!unknown.admitted && unknown.reason).toMatch(/unavailable/);
  });

  it('without a snapshot, a known member is refused as unavailable while the service is down', async () => {
    h = await startHarness({
      config: { gate: { timeoutSeconds: 2 }, api: { timeoutMs: 500 } },
      beforeStart: (mock) => {
        mock.faults.internal();
      },
    });
    const member = h.mock.data.members[0]!;
    const d = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/unavailable/);
    await eventually(() => h!.logText().includes('could not verify the key'), 8000);
  });
});

describe('secrets', () => {
  it('the key appears in no log line, event, state bag or file', async () => {
    h = await startHarness({ config: { refresh: { intervalSeconds: 1 } } });
    const { id } = await joinMember(h, 0);
    h.server.executeCommand('roster status');
    h.server.executeCommand('roster doctor');
    await eventually(() => h!.logText().includes('Rank ladders'), 8000);
    h.server.stopResource('roster');
    const secret = h.mock.keys.full!.split('_')[2]!;
    expect(h.logText()).not.toContain(secret);
    expect(JSON.stringify(h.server.bags.writes)).not.toContain(secret);
    for (const f of readdirSync(h.folder, { recursive: true }) as string[]) {
      const path = join(h.folder, f);
      if (f.endsWith('.json')) expect(readFileSync(path, 'utf8')).not.toContain(secret);
    }
    expect(id).toBeGreaterThan(0);
  });
});
