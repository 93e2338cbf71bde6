/**
 * Rank changes from the game: the setRank export and the `rank` command,
 * from the built bundle against the mock roster over loopback.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, type Harness, type HarnessOptions, startHarness } from '../harness';

type Result =
  | { ok: true; member: { departments: { id: string; rank: unknown }[] } }
  | { ok: false; reason: string };

const plain = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));
const PATCH = 'PATCH /api/v1/department-assignments/:id';

let h: Harness | undefined;
// Fake time that also follows real time (the mock's real I/O still gets answered): the rank
// change limits are seconds and minutes, passed here without sleeping through them.
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.useRealTimers();
});

const READ = 'GET /api/v1/department-assignments';
/** A player actor's changes are at least 3 s apart. */
const nextChange = () => vi.advanceTimersByTimeAsync(3_000);
const sentSince = (from: number) => h!.mock.counters.log.slice(from).map((e) => e.endpoint);

const config = { rateLimit: { perMinute: 6000 }, refresh: { intervalSeconds: 3600, auditSeconds: 0 } };

interface Cast {
  captain: { id: number; member: MockMember };
  officer: { id: number; member: MockMember };
  peer: { id: number; member: MockMember };
  senior: { id: number; member: MockMember };
}

/** A captain, an officer, another captain and an assistant chief of LSPD, all online and loaded. */
async function cast(options: HarnessOptions = {}): Promise<Cast> {
  h = await startHarness({ config, ...options });
  const add = (name: string, position: number) =>
    h!.mock.data.addMember({ displayName: name, departmentId: 'dept_lspd', rankId: `rank_lspd_${position}` });
  const people = {
    captain: add('Cara Captain', 3),
    officer: add('Otto Officer', 7),
    peer: add('Pia Peer', 3),
    senior: add('Sam Senior', 2),
  };
  const online: Partial<Cast> = {};
  for (const [role, member] of Object.entries(people)) {
    const decision = await h.server.connectPlayer({
      name: member.displayName,
      identifiers: [member.gameLicense],
    }).decision;
    if (!decision.admitted) throw new Error(`${role} refused: ${decision.reason}`);
    online[role as keyof Cast] = { id: decision.id, member };
  }
  const roster = h.caller.exports.roster!;
  for (const { id } of Object.values(online)) await eventually(() => roster.getRank!(id, 'LSPD') !== null);
  return online as Cast;
}

const setRank = (target: number, department: string, rank: string, actor?: number | null) =>
  h!.caller.exports.roster!.setRank!(target, department, rank, actor) as Promise<Result>;

describe('setRank and the rank command', () => {
  it('a captain promotes an officer: PATCH, exports, events, state bag and the log line', async () => {
    const { captain, officer } = await cast();
    const updated: unknown[][] = [];
    const changed: unknown[][] = [];
    h!.caller.on('roster:playerUpdated', (...args) => updated.push(plain(args)));
    h!.caller.on('roster:rankChanged', (...args) => changed.push(plain(args)));
    const assignment = h!.mock.data.assignmentsOf(officer.member.id)[0]!;
    const before = h!.mock.counters.log.length;

    const result = plain(await setRank(officer.id, 'lspd', 'Senior Officer', captain.id));

    expect(result.ok).toBe(true);
    // The mock refuses any body but {"rankId": "<rank of the department>"}.
    const sent = h!.mock.counters.log.slice(before).filter((e) => e.endpoint === PATCH);
    expect(sent.map((e) => e.path)).toEqual([`/api/v1/department-assignments/${assignment.id}`]);
    expect(assignment.rankId).toBe('rank_lspd_6');
    const audit = h!.mock.data.data.auditLogs.at(-1)!;
    expect(audit.changes).toEqual({ rankId: { from: 'rank_lspd_7', to: 'rank_lspd_6' } });
    // Two round trips: the fresh read of both members (one request), then the PATCH; the new
    // rank is in the exports as soon as setRank resolves.
    expect(sentSince(before)).toEqual([READ, PATCH]);
    const read = new URLSearchParams(h!.mock.counters.log[before]!.query);
    expect(read.getAll('memberId').sort()).toEqual([officer.member.id, captain.member.id].sort());
    expect(read.get('include')).toBe('rank,member');
    const senior = { id: 'rank_lspd_6', name: 'Senior Officer', position: 6 };
    const roster = h!.caller.exports.roster!;
    expect(plain(roster.getRank!(officer.id, 'LSPD'))).toEqual(senior);
    expect(roster.hasRank!(officer.id, 'LSPD', 'Senior Officer')).toBe(true);
    if (result.ok) expect(result.member.departments[0]!.rank).toEqual(senior);

    expect(updated).toHaveLength(1);
    expect(updated[0]![0]).toBe(officer.id);
    expect((updated[0]![1] as { departments: { rank: unknown }[] }).departments[0]!.rank).toEqual(senior);
    expect((updated[0]![2] as { departments: { rank: { name: string } }[] }).departments[0]!.rank.name).toBe(
      'Officer',
    );
    expect(changed).toEqual([
      [
        officer.id,
        {
          department: expect.objectContaining({ id: 'dept_lspd', shortName: 'LSPD', rank: senior }),
          from: { id: 'rank_lspd_7', name: 'Officer', position: 7 },
          to: senior,
          actor: captain.id,
        },
      ],
    ]);
    const bag = plain(h!.caller.eval(`Player('${officer.id}').state.roster`)) as {
      departments: { rank: unknown }[];
    };
    expect(bag.departments[0]!.rank).toEqual(senior);

    const log = readFileSync(join(h!.folder, 'rank-changes.log'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\S+Z actor="Cara Captain" actor_player="\d+" actor_license="license:[0-9a-f]{40}"/,
    );
    expect(log[0]).toContain(
      `target="Otto Officer" target_player="${officer.id}" member="${officer.member.id}"`,
    );
    expect(log[0]).toContain('department="LSPD" from="Officer" to="Senior Officer"');
    expect(h!.logText()).toContain('rank change: ');
    const [, , secret] = h!.mock.keys.full!.split('_');
    expect(log[0]).not.toContain(secret!);
  });

  it('refuses a peer, a senior and a rank above the actor on one fresh read each, never a PATCH', async () => {
    const { captain, officer, peer, senior } = await cast();
    const before = h!.mock.counters.log.length;
    const decided = [
      [() => setRank(peer.id, 'LSPD', 'Lieutenant', captain.id), /now Captain.*Assistant Chief or above/],
      [() => setRank(senior.id, 'LSPD', 'Officer', captain.id), /now Assistant Chief.*Chief or above/],
      [
        () => setRank(officer.id, 'LSPD', 'Captain', captain.id),
        /set Captain.*Assistant Chief or above.*you are Captain/,
      ],
      [() => setRank(officer.id, 'LSPD', 'Officer', captain.id), /already holds Officer/],
      [() => setRank(captain.id, 'LSPD', 'Officer', officer.id), /you are Officer/],
    ] as const;
    for (const [change, reason] of decided) {
      const result = await change();
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
      await nextChange();
    }
    expect(sentSince(before)).toEqual(decided.map(() => READ));
    expect(h!.caller.exports.roster!.hasRank!(officer.id, 'LSPD', 'Officer')).toBe(true);
  });

  it('refuses an unknown rank or department, or one the target is not in, without sending anything', async () => {
    const { captain, officer } = await cast();
    const before = h!.mock.counters.log.length;
    const refusals = [
      [
        await setRank(officer.id, 'LSPD', 'Sarge', captain.id),
        /LSPD has no rank "Sarge"; its ranks: Chief, /,
      ],
      [await setRank(officer.id, 'BCSO', 'Deputy', captain.id), /is not in BCSO/],
      [await setRank(officer.id, 'NOPE', 'Officer', captain.id), /no department "NOPE"/],
    ] as const;
    for (const [result, reason] of refusals) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
    }
    expect(h!.mock.counters.log.slice(before)).toEqual([]);
  });

  it('an actor outside the department is refused on what the server holds, with no request', async () => {
    await cast();
    const outsider = h!.mock.data.addMember({
      displayName: 'Fay Firefighter',
      departmentId: 'dept_safr',
      rankId: 'rank_safr_1',
    });
    const decision = await h!.server.connectPlayer({
      name: outsider.displayName,
      identifiers: [outsider.gameLicense],
    }).decision;
    if (!decision.admitted) throw new Error(`refused: ${decision.reason}`);
    const roster = h!.caller.exports.roster!;
    await eventually(() => roster.getRank!(decision.id, 'SAFR') !== null);
    const officer = h!.mock.data.members.find((m) => m.displayName === 'Otto Officer')!;
    const officerId = h!.server.playerList().find((p) => p.name === officer.displayName)!.id;
    const before = h!.mock.counters.log.length;
    for (let i = 0; i < 5; i++) {
      const result = await setRank(officerId, 'LSPD', 'Senior Officer', decision.id);
      expect(result).toEqual({
        ok: false,
        reason: 'You are not in LSPD on the roster, so you hold no rank there to change others with.',
      });
    }
    expect(sentSince(before)).toEqual([]);
  });

  it('a read-only key refuses at once, naming the write scopes', async () => {
    const { officer } = await cast({ keyName: 'readOnly' });
    await eventually(() => h!.logText().includes('connected to the roster'));
    const before = h!.mock.counters.log.length;
    const result = await setRank(officer.id, 'LSPD', 'Senior Officer', 0);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toMatch(/lacks a write scope \(roster:write or departments:write\)/);
    expect(h!.mock.counters.log.slice(before)).toEqual([]);
  });

  it('names the write scope from the service when it refuses the change', async () => {
    const { officer } = await cast({ keyName: 'rosterWrite' });
    await eventually(() => h!.logText().includes('connected to the roster'));
    // The key lost its write scope after the start: the service's insufficient_scope names it.
    h!.mock.keyRecords.find((k) => k.name === 'rosterWrite')!.scopes = ['roster:read', 'departments:read'];
    const result = await setRank(officer.id, 'LSPD', 'Senior Officer', 0);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/may not change ranks: it lacks the scope roster:write/);
    expect(h!.caller.exports.roster!.hasRank!(officer.id, 'LSPD', 'Officer')).toBe(true);
  });

  it('the console sets any rank; players use the command and are answered in chat', async () => {
    const { captain, officer } = await cast();
    const roster = h!.caller.exports.roster!;
    const before = h!.server.log.lines.length;
    h!.server.executeCommand(`rank set ${officer.id} LSPD Chief`);
    await eventually(() => roster.hasRank!(officer.id, 'LSPD', 'Chief'));
    await eventually(() => h!.server.log.lines.slice(before).some((l) => l.includes('is now Chief in LSPD')));

    h!.server.executeCommand(`rank demote ${officer.id}`);
    await eventually(() => roster.hasRank!(officer.id, 'LSPD', 'Assistant Chief'));

    // A captain may not demote an assistant chief: told in chat, decided on a fresh read, no PATCH.
    const sent = h!.mock.counters.log.length;
    h!.server.executeCommand(`rank demote ${officer.id}`, captain.id);
    const chat = await eventually(() =>
      h!.server.clientEvents.find((e) => e.event === 'chat:addMessage' && e.target === captain.id),
    );
    expect((chat.args[0] as { args: string[] }).args).toEqual([
      'Roster',
      expect.stringMatching(/You may not set Captain for Otto Officer \(now Assistant Chief\)/),
    ]);
    expect(sentSince(sent)).toEqual([READ]);
    await nextChange();

    h!.server.executeCommand(`rank set ${officer.id} LSPD Officer`);
    await eventually(() => roster.hasRank!(officer.id, 'LSPD', 'Officer'));
    h!.server.executeCommand(`rank promote ${officer.id} LSPD`, captain.id);
    await eventually(() => roster.hasRank!(officer.id, 'LSPD', 'Senior Officer'));
    await eventually(() =>
      h!.server.clientEvents.some(
        (e) =>
          e.event === 'chat:addMessage' &&
          e.target === captain.id &&
          /is now Senior Officer in LSPD \(was Officer\)/.test(
            String((e.args[0] as { args: string[] }).args[1]),
          ),
      ),
    );
    const log = readFileSync(join(h!.folder, 'rank-changes.log'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(4);
    expect(log[0]).toMatch(/actor="console" target="Otto Officer".* from="Officer" to="Chief"/);
    expect(log[3]).toMatch(/actor="Cara Captain".* from="Officer" to="Senior Officer"/);
  });

  it('decides on the roster now: a captain may not demote a member just made Assistant Chief there', async () => {
    const { captain, officer } = await cast();
    const roster = h!.caller.exports.roster!;
    const assignment = h!.mock.data.assignmentsOf(officer.member.id)[0]!;
    // Promoted on the roster a moment ago; the server still holds them as Officer.
    h!.mock.data.setAssignmentRank(assignment.id, 'rank_lspd_2');
    expect(roster.hasRank!(officer.id, 'LSPD', 'Officer')).toBe(true);
    const before = h!.mock.counters.log.length;

    const result = await setRank(officer.id, 'LSPD', 'Sergeant', captain.id);

    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toMatch(/You may not set Sergeant for Otto Officer \(now Assistant Chief\)/);
    expect(assignment.rankId).toBe('rank_lspd_2');
    expect(sentSince(before)).not.toContain(PATCH);
    // The stale record is read again, so the exports catch up too.
    await eventually(() => roster.hasRank!(officer.id, 'LSPD', 'Assistant Chief'));
  });

  it('a suspended member still online has no authority; one allowed roster.manage still has', async () => {
    const { captain, officer } = await cast();
    h!.mock.data.setMemberStatus(captain.member.id, 'SUSPENDED');
    const before = h!.mock.counters.log.length;

    const refused = await setRank(officer.id, 'LSPD', 'Senior Officer', captain.id);

    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.reason).toBe(
        'Your roster status is SUSPENDED, which gives no authority to change ranks.',
      );
    expect(sentSince(before)).toEqual([READ]);
    expect(h!.mock.data.assignmentsOf(officer.member.id)[0]!.rankId).toBe('rank_lspd_7');
    await nextChange();
    h!.server.executeCommand(`add_ace player.${captain.id} roster.manage allow`);
    expect((await setRank(officer.id, 'LSPD', 'Senior Officer', captain.id)).ok).toBe(true);
  });

  it('one change every 3 s per player actor: the next at once is refused, saying when to try again', async () => {
    const { captain, officer } = await cast();
    expect((await setRank(officer.id, 'LSPD', 'Senior Officer', captain.id)).ok).toBe(true);
    const before = h!.mock.counters.log.length;

    const again = await setRank(officer.id, 'LSPD', 'Sergeant', captain.id);

    expect(again).toEqual({
      ok: false,
      reason: expect.stringMatching(/^You changed a rank moments ago; try again in [1-3] s\.$/),
    });
    expect(h!.mock.counters.log.slice(before)).toEqual([]);
    await nextChange();
    expect((await setRank(officer.id, 'LSPD', 'Sergeant', captain.id)).ok).toBe(true);
  });

  it('at most 4 changes of one member in 10 minutes, whoever the actor, the console too', async () => {
    const { captain, officer } = await cast();
    for (const rank of ['Senior Officer', 'Officer', 'Senior Officer', 'Officer']) {
      expect((await setRank(officer.id, 'LSPD', rank, 0)).ok).toBe(true);
    }
    const before = h!.mock.counters.log.length;
    const limited =
      /^Otto Officer's rank has been changed 4 times in the last 10 minutes, the most allowed; try again in (10 min|\d+ s)\.$/;
    const byConsole = await setRank(officer.id, 'LSPD', 'Sergeant', 0);
    const byCaptain = await setRank(officer.id, 'LSPD', 'Sergeant', captain.id);
    for (const result of [byConsole, byCaptain])
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(limited) });
    expect(h!.mock.counters.log.slice(before)).toEqual([]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect((await setRank(officer.id, 'LSPD', 'Sergeant', captain.id)).ok).toBe(true);
  });

  it('an omitted or null actor is refused, never taken for the console', async () => {
    const { officer } = await cast();
    const before = h!.mock.counters.log.length;
    for (const result of [
      await setRank(officer.id, 'LSPD', 'Chief'),
      await setRank(officer.id, 'LSPD', 'Chief', null),
    ]) {
      expect(result).toEqual({
        ok: false,
        reason: expect.stringMatching(/^actor is missing: pass the acting player's server id, or 0/),
      });
    }
    expect(h!.mock.counters.log.slice(before)).toEqual([]);
    expect(h!.mock.data.assignmentsOf(officer.member.id)[0]!.rankId).toBe('rank_lspd_7');
  });

  it('from Lua: a handler whose source is nil after Wait() is refused; a copied source is judged', async () => {
    const { officer } = await cast();
    const vm = await h!.server.createLuaResource('jobs');
    try {
      await vm.run(`
        answers = {}
        RegisterNetEvent('jobs:promote', function(target)
          Wait(100)
          local r = exports.roster:setRank(target, 'LSPD', 'Chief', source)
          answers[#answers + 1] = tostring(r.ok) .. '|' .. tostring(r.reason)
        end)
        RegisterNetEvent('jobs:promoteCopied', function(target)
          local actor = source
          Wait(100)
          local r = exports.roster:setRank(target, 'LSPD', 'Chief', actor)
          answers[#answers + 1] = tostring(r.ok) .. '|' .. tostring(r.reason)
        end)`);
      // The officer's own client asks to be made Chief.
      h!.server.emitNet('jobs:promote', officer.id, officer.id);
      const answers = () => vm.run('return table.concat(answers, "\\n")') as Promise<string>;
      let text = '';
      for (let i = 0; i < 200 && text === ''; i++) {
        text = await answers();
        if (text === '') await h!.server.nextTick();
      }
      expect(text).toMatch(/^false\|actor is missing: pass the acting player's server id, or 0/);
      h!.server.emitNet('jobs:promoteCopied', officer.id, officer.id);
      for (let i = 0; i < 200 && !text.includes('\n'); i++) {
        text = await answers();
        if (!text.includes('\n')) await h!.server.nextTick();
      }
      expect(text.split('\n')[1]).toMatch(
        /^false\|You may not set Chief for Otto Officer \(now Officer\).*you are Officer\.$/,
      );
      expect(h!.mock.data.assignmentsOf(officer.member.id)[0]!.rankId).toBe('rank_lspd_7');
      expect(h!.caller.exports.roster!.hasRank!(officer.id, 'LSPD', 'Officer')).toBe(true);
    } finally {
      vm.close();
    }
  });

  it('a fresh read rate limited or unanswered is refused on its one request, never retried into a late change', async () => {
    const { captain, officer } = await cast();
    const assignment = h!.mock.data.assignmentsOf(officer.member.id)[0]!;
    // Rate limited: refused with what happened, not held through the pause and made minutes later.
    h!.mock.faults.rateLimit(1, { retryAfter: 120 });
    let before = h!.mock.counters.log.length;
    let limited: Result | undefined;
    void setRank(officer.id, 'LSPD', 'Senior Officer', captain.id).then((r) => {
      limited = r;
    });
    await eventually(() => limited !== undefined);
    expect(limited).toEqual({
      ok: false,
      reason: expect.stringMatching(/^The roster is rate limiting this server/),
    });
    expect(sentSince(before)).toEqual([READ]);
    await vi.advanceTimersByTimeAsync(130_000);
    expect(assignment.rankId).toBe('rank_lspd_7');
    expect(sentSince(before)).toEqual([READ]);

    // Unanswered: refused once the request's own time limit (api.timeoutMs, 5 s) has passed.
    h!.mock.faults.failPath('/api/v1/department-assignments', 'hang');
    before = h!.mock.counters.log.length;
    let answer: Result | undefined;
    void setRank(officer.id, 'LSPD', 'Senior Officer', captain.id).then((r) => {
      answer = r;
    });
    await vi.advanceTimersByTimeAsync(5_500);
    await eventually(() => answer !== undefined);
    expect(answer).toEqual({
      ok: false,
      reason: expect.stringMatching(/^The roster is unavailable right now/),
    });
    expect(sentSince(before)).toEqual([READ]);
    h!.mock.faults.clear();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sentSince(before)).toEqual([READ]);
    expect(assignment.rankId).toBe('rank_lspd_7');
  });

  it('a player allowed roster.manage sets any rank', async () => {
    const { captain, senior } = await cast();
    h!.server.executeCommand(`add_ace player.${captain.id} roster.manage allow`);
    const result = await setRank(senior.id, 'LSPD', 'Chief', captain.id);
    expect(result.ok).toBe(true);
  });
});
