import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, type HarnessOptions, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ACL = [
  ['resource.roster', 'command.add_principal', 'allow'],
  ['resource.roster', 'command.remove_principal', 'allow'],
] as const;

/** ACEs an owner maps onto roster principals in server.cfg. */
const OWNER_ACES = [
  ['roster.member', 'test.member', 'allow'],
  ['roster.lspd', 'test.lspd', 'allow'],
  ['roster.lspd.chief', 'test.chief', 'allow'],
  ['roster.lspd.lieutenant', 'test.lieutenant', 'allow'],
  ['roster.lspd.sergeant', 'test.sergeant', 'allow'],
] as const;
const OBJECTS = OWNER_ACES.map(([, object]) => object);

async function start(options: HarnessOptions & { acl?: boolean } = {}): Promise<Harness> {
  const harness = await startHarness({
    ...options,
    aces: [...(options.acl === false ? [] : ACL), ...OWNER_ACES, ...(options.aces ?? [])],
  });
  h = harness;
  await eventually(() => harness.logText().includes('connected to the roster'));
  return harness;
}

function addLspdMember(harness: Harness, rank: string, status: 'ACTIVE' | 'SUSPENDED' = 'ACTIVE') {
  const lspd = harness.mock.data.rankByName('LSPD', rank);
  return harness.mock.data.addMember({ departmentId: lspd.departmentId, rankId: lspd.id, status });
}

/** What another resource sees, synchronously, inside its own playerJoining handler. */
function watchJoining(harness: Harness): Record<string, Record<string, boolean>> {
  harness.caller.eval(`
    globalThis.seenAtJoin = {};
    on('playerJoining', () => {
      const src = source;
      const seen = {};
      for (const object of ${JSON.stringify(OBJECTS)}) seen[object] = IsPlayerAceAllowed(src, object);
      globalThis.seenAtJoin[GetPlayerName(src)] = seen;
    });
  `);
  return new Proxy(
    {},
    {
      get: (_, name) =>
        harness.caller.eval<Record<string, Record<string, boolean>>>('globalThis.seenAtJoin')[name as string],
    },
  );
}

function allowed(harness: Harness, id: number): string[] {
  return OBJECTS.filter((object) => harness.caller.eval<boolean>(`IsPlayerAceAllowed(${id}, '${object}')`));
}

function principalAllowed(harness: Harness, principal: string, object: string): boolean {
  return harness.caller.eval<boolean>(`IsPrincipalAceAllowed(${JSON.stringify(principal)}, '${object}')`);
}

async function joinAs(harness: Harness, name: string, license: string) {
  const decision = await harness.server.connectPlayer({ name, identifiers: [license] }).decision;
  return decision;
}

describe('roster ranks as ACE principals', () => {
  it('at join, another resource sees a Captain allowed a Lieutenant ACE and not the Chief one', async () => {
    // The watching resource starts before roster, so its playerJoining handler runs first: the
    // grants must already be in force when the gate admits, not only when roster sees the join.
    const harness = await startHarness({ aces: [...ACL, ...OWNER_ACES], startResource: false });
    h = harness;
    const seen = watchJoining(harness);
    harness.server.startResource('roster', harness.folder);
    await eventually(() => harness.logText().includes('connected to the roster'));
    const captain = addLspdMember(harness, 'Captain');
    const decision = await joinAs(harness, 'Cap', captain.gameLicense);
    expect(decision.admitted).toBe(true);
    expect(seen.Cap).toEqual({
      'test.member': true,
      'test.lspd': true,
      'test.chief': false,
      'test.lieutenant': true,
      'test.sergeant': true,
    });
  });

  it('an Officer promoted on the roster gains the Sergeant ACE after a refresh', async () => {
    const harness = await start();
    const officer = addLspdMember(harness, 'Officer');
    const decision = await joinAs(harness, 'Off', officer.gameLicense);
    if (!decision.admitted) throw new Error(decision.reason);
    await eventually(() => allowed(harness, decision.id).includes('test.member'));
    expect(allowed(harness, decision.id)).toEqual(['test.member', 'test.lspd']);
    harness.mock.dashboard.setRank(officer.id, harness.mock.data.rankByName('LSPD', 'Sergeant').id);
    harness.server.executeCommand(`roster refresh ${decision.id}`);
    await eventually(() => allowed(harness, decision.id).includes('test.sergeant'));
    expect(allowed(harness, decision.id)).toEqual(['test.member', 'test.lspd', 'test.sergeant']);
  });

  it('a suspended member and a stranger get nothing, even when the gate lets them in', async () => {
    const harness = await start({ config: { gate: { enabled: false } } });
    const seen = watchJoining(harness);
    const suspended = addLspdMember(harness, 'Chief', 'SUSPENDED');
    const a = await joinAs(harness, 'Sus', suspended.gameLicense);
    const b = await joinAs(harness, 'Str', strangerLicense);
    if (!a.admitted || !b.admitted) throw new Error('the open gate refused');
    await eventually(() => harness.logText().includes('Str admitted'));
    expect(Object.values(seen.Sus ?? {}).some(Boolean)).toBe(false);
    expect(Object.values(seen.Str ?? {}).some(Boolean)).toBe(false);
    expect(allowed(harness, a.id)).toEqual([]);
    expect(allowed(harness, b.id)).toEqual([]);
  });

  it('a member suspended while online loses every principal at the next refresh', async () => {
    const harness = await start();
    const chief = addLspdMember(harness, 'Chief');
    const decision = await joinAs(harness, 'Boss', chief.gameLicense);
    if (!decision.admitted) throw new Error(decision.reason);
    await eventually(() => allowed(harness, decision.id).includes('test.chief'));
    harness.mock.dashboard.setStatus(chief.id, 'SUSPENDED');
    harness.server.executeCommand(`roster refresh ${decision.id}`);
    await eventually(() => allowed(harness, decision.id).length === 0);
  });

  it('leaving removes the player principals; stopping removes everything and empties the ledger', async () => {
    const harness = await start();
    const a = addLspdMember(harness, 'Lieutenant');
    const b = addLspdMember(harness, 'Chief');
    const da = await joinAs(harness, 'A', a.gameLicense);
    const db = await joinAs(harness, 'B', b.gameLicense);
    if (!da.admitted || !db.admitted) throw new Error('refused');
    const principalOf = (license: string) => `identifier.${license}`;
    await eventually(() => principalAllowed(harness, principalOf(b.gameLicense), 'test.chief'));
    harness.server.dropPlayer(da.id, 'Exiting');
    await eventually(() => !principalAllowed(harness, principalOf(a.gameLicense), 'test.member'));
    expect(principalAllowed(harness, principalOf(b.gameLicense), 'test.chief')).toBe(true);
    const ledger = join(harness.folder, 'roster-principals.txt');
    // Every link still granted is listed; a's lines may stay until the ledger is next rewritten
    // (removing a link that is gone does nothing, so a stale line costs nothing after a crash).
    expect(readFileSync(ledger, 'utf8')).toContain(principalOf(b.gameLicense));

    harness.server.stopResource('roster');
    await eventually(() => harness.server.resourceState('roster') === 'stopped');
    for (const object of OBJECTS) {
      expect(principalAllowed(harness, principalOf(b.gameLicense), object)).toBe(false);
    }
    // The ladder goes too: a Chief principal no longer reaches the Lieutenant's ACE.
    expect(principalAllowed(harness, 'roster.lspd.chief', 'test.lieutenant')).toBe(false);
    expect(readFileSync(ledger, 'utf8')).not.toMatch(/^[^#]/m);
  });

  it('a start after a crash removes what the previous run left', async () => {
    const leftover = `identifier.license:${'9'.repeat(40)}`;
    const harness = await startHarness({ aces: [...ACL, ...OWNER_ACES], startResource: false });
    h = harness;
    // A run that never stopped left its ledger and its links in the ACL.
    writeFileSync(
      join(harness.folder, 'roster-principals.txt'),
      `# roster principal links v1: child parent\n${leftover} roster.lspd.chief\nroster.lspd.cadet roster.lspd.chief\n`,
    );
    harness.server.executeCommand(`add_principal ${leftover} roster.lspd.chief`);
    harness.server.executeCommand('add_principal roster.lspd.cadet roster.lspd.chief');
    expect(principalAllowed(harness, leftover, 'test.chief')).toBe(true);
    harness.server.startResource('roster', harness.folder);
    await eventually(() => harness.logText().includes('connected to the roster'));
    expect(principalAllowed(harness, leftover, 'test.chief')).toBe(false);
    expect(principalAllowed(harness, 'roster.lspd.cadet', 'test.chief')).toBe(false);
    expect(harness.logText()).toContain('2 principal link(s) a previous run left');
    expect(readFileSync(join(harness.folder, 'roster-principals.txt'), 'utf8')).not.toContain(leftover);
  });

  it('without the ACL lines: one clear line naming both, players still gated, doctor shows the fix', async () => {
    const harness = await start({ acl: false });
    const lines = harness.server.log.of('roster').filter((l) => l.includes('command.add_principal'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('add_ace resource.roster command.add_principal allow');
    expect(lines[0]).toContain('add_ace resource.roster command.remove_principal allow');
    const captain = addLspdMember(harness, 'Captain');
    const member = await joinAs(harness, 'Cap', captain.gameLicense);
    const stranger = await joinAs(harness, 'Str', strangerLicense);
    expect(member.admitted).toBe(true);
    expect(stranger.admitted).toBe(false);
    if (member.admitted) expect(allowed(harness, member.id)).toEqual([]);
    // The resource never tries a command FXServer would refuse (the emulator runs ExecuteCommand as
    // resource.roster and refuses it like FXServer does).
    expect(harness.logText()).not.toContain('Access denied');
    const before = harness.server.log.lines.length;
    harness.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = harness.server.log.lines.slice(before).join('\n');
      return text.includes('✗ permissions') && text;
    }, 10_000);
    expect(doctor).toContain('add_ace resource.roster command.remove_principal allow');
    // Had it tried, FXServer would have refused: roster's own ExecuteCommand runs as
    // resource.roster, which lacks command.add_principal (Console.Commands.cpp InvokeDirect).
    if (!member.admitted) throw new Error(member.reason);
    harness.server
      .resource('roster')!
      .evaluate(`ExecuteCommand('add_principal player.${member.id} roster.lspd')`);
    expect(harness.server.log.of('server')).toContain('Access denied for command add_principal.');
    expect(allowed(harness, member.id)).toEqual([]);
  });

  it('with only add_principal allowed nothing is granted: a grant it could not remove would outlive the player', async () => {
    const harness = await start({ acl: false, aces: [ACL[0]] });
    expect(harness.logText()).toContain('add_ace resource.roster command.remove_principal allow');
    const captain = addLspdMember(harness, 'Captain');
    const member = await joinAs(harness, 'Cap', captain.gameLicense);
    if (!member.admitted) throw new Error(member.reason);
    await eventually(() => harness.logText().includes('Cap admitted'));
    expect(allowed(harness, member.id)).toEqual([]);
    expect(principalAllowed(harness, 'roster.lspd.captain', 'test.lieutenant')).toBe(false);
    expect(harness.logText()).not.toContain('Access denied');
  });

  it('doctor lists each department principals top to bottom', async () => {
    const harness = await start();
    await eventually(() => harness.server.log.lines.length > 0);
    const before = harness.server.log.lines.length;
    harness.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = harness.server.log.lines.slice(before).join('\n');
      return text.includes('✓ permissions') && text.includes('LSPD —') && text;
    }, 10_000);
    expect(doctor).toContain(
      'roster.lspd.chief > roster.lspd.assistant_chief > roster.lspd.captain > roster.lspd.lieutenant > roster.lspd.sergeant > roster.lspd.senior_officer > roster.lspd.officer > roster.lspd.cadet > roster.lspd',
    );
    expect(doctor).toContain('roster.member');
  });

  it('a hostile rank name becomes a harmless principal: nothing reaches the console', async () => {
    const hostile = 'Cap"tain; add_ace builtin.everyone command allow\nquit';
    const harness = await start({
      beforeStart: (mock) => {
        mock.dashboard.renameRank(mock.data.rankByName('LSPD', 'Captain').id, hostile);
      },
      aces: [['roster.lspd.cap_tain_add_ace_builtin_everyone_command_allow_quit', 'test.odd', 'allow']],
    });
    const lspd = harness.mock.data.data.departments.find((d) => d.shortName === 'LSPD')!;
    const rank = harness.mock.data.data.ranks.find((r) => r.name === hostile)!;
    const member = harness.mock.data.addMember({ departmentId: lspd.id, rankId: rank.id });
    const decision = await joinAs(harness, 'Odd', member.gameLicense);
    if (!decision.admitted) throw new Error(decision.reason);
    await eventually(() => harness.caller.eval<boolean>(`IsPlayerAceAllowed(${decision.id}, 'test.odd')`));
    expect(harness.caller.eval<boolean>(`IsPlayerAceAllowed(${decision.id}, 'test.lieutenant')`)).toBe(true);
    expect(principalAllowed(harness, 'builtin.everyone', 'command')).toBe(false);
    expect(harness.server.resourceState('roster')).toBe('started');
  });
});

describe("roster principals stay out of FXServer's own namespaces", () => {
  /** A department the roster lists, with one rank and one member of it. */
  function addDepartment(harness: Harness, id: string, name: string, shortName: string) {
    const { data } = harness.mock.data;
    data.departments.push({ id, name, shortName, createdAt: new Date().toISOString() });
    data.ranks.push({ id: `${id}_r`, departmentId: id, name: 'Member', position: 1, createdAt: '' });
    return harness.mock.data.addMember({ departmentId: id, rankId: `${id}_r` });
  }

  for (const [prefix, department, principal] of [
    ['group', 'Admin', 'group.admin'],
    ['resource', 'roster', 'resource.roster'],
  ] as const) {
    it(`prefix "${prefix}" is refused: a department "${department}" never makes its members ${principal}`, async () => {
      const harness = await startHarness({
        config: { permissions: { prefix } },
        aces: [
          ...ACL,
          // What a server.cfg typically gives these principals.
          ['group.admin', 'command.quit', 'allow'],
          ['resource.roster', 'command.add_principal', 'allow'],
        ],
      });
      h = harness;
      const member = addDepartment(harness, 'dep_attack', `The ${department}`, department);
      // Up and serving, or refusing to run: either way, the attacker then tries to join.
      await eventually(() => /connected to the roster|permissions\.prefix/.test(harness.logText()));
      const decision = await joinAs(harness, 'Attacker', member.gameLicense);
      const self = `identifier.${member.gameLicense}`;
      expect(principalAllowed(harness, self, 'command.quit')).toBe(false);
      expect(principalAllowed(harness, self, 'command.add_principal')).toBe(false);
      if (decision.admitted) {
        expect(harness.caller.eval<boolean>(`IsPlayerAceAllowed(${decision.id}, 'command.quit')`)).toBe(
          false,
        );
      }
      const said = harness.server.log.of('roster').find((l) => l.includes('permissions.prefix'))!;
      expect(said).toContain(`"${prefix}"`);
      expect(said).toContain("FXServer's own namespaces");
    });
  }
});

describe('two departments with one principal name', () => {
  it('a new department named like LSPD leaves LSPD members their principals, and is named once and in doctor', async () => {
    const harness = await start({
      config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 }, mirror: { enabled: false } },
    });
    const sergeant = addLspdMember(harness, 'Sergeant');
    const decision = await joinAs(harness, 'Sgt', sergeant.gameLicense);
    if (!decision.admitted) throw new Error(decision.reason);
    await eventually(() => allowed(harness, decision.id).includes('test.sergeant'));
    const { data } = harness.mock.data;
    const cadet = harness.mock.data.rankByName('LSPD', 'Cadet');
    // Created on the roster now, after LSPD, and listed before it.
    data.departments.unshift({
      id: 'dep_new',
      name: 'Liberty State Police Division',
      shortName: 'Lspd',
      createdAt: new Date(Date.now() + 60_000).toISOString(),
    });
    data.ranks.push({
      id: 'dep_new_r',
      departmentId: 'dep_new',
      name: 'Trooper',
      position: 1,
      createdAt: '',
    });
    // An entry naming a known rank makes the resource read departments and ranks again (one naming
    // only the new department would not: it reloads for ids it knows).
    harness.mock.dashboard.renameRank(cadet.id, 'Cadet');
    const named = () =>
      harness.server.log.of('roster').filter((l) => l.includes('Liberty State Police Division'));
    await eventually(() => named().length > 0, 10_000);
    expect(named()).toHaveLength(1);
    expect(named()[0]).toContain('would be roster.lspd, which the older department "LSPD —');
    // The Sergeant online keeps every principal, and the ladder stays whole.
    expect(allowed(harness, decision.id)).toEqual(['test.member', 'test.lspd', 'test.sergeant']);
    expect(principalAllowed(harness, 'roster.lspd.chief', 'test.lieutenant')).toBe(true);
    const before = harness.server.log.lines.length;
    harness.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = harness.server.log.lines.slice(before).join('\n');
      return text.includes('✓ permissions') && text.includes('Lspd — Liberty') && text;
    }, 10_000);
    expect(doctor).toContain('! department "Lspd — Liberty State Police Division" would be roster.lspd');
    expect(doctor).toContain('roster.lspd.officer > roster.lspd.cadet > roster.lspd');
  });
});
