/**
 * CONTRACT section 10, rank changes from the game: the setRank export and the `rank` command,
 * from the built bundle against the mock roster over loopback.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockMember } from '../../dev/mock-roster/records';
import { eventually, type Harness, type HarnessOptions, startHarness } from './harness';

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
    expect(log[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z actor="Cara Captain" \(player \d+, license:[0-9a-f]{40}\)/);
    expect(log[0]).toContain(`target="Otto Officer" (player ${officer.id}, member ${officer.member.id})`);
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

  it('a player allowed roster.manage sets any rank', async () => {
    const { captain, senior } = await cast();
    h!.server.executeCommand(`add_ace player.${captain.id} roster.manage allow`);
    const result = await setRank(senior.id, 'LSPD', 'Chief', captain.id);
    expect(result.ok).toBe(true);
  });
});
