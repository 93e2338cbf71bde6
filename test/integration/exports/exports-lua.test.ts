/**
 * The roster exports called from Lua (`exports.roster:fn(...)`, colon call) through a
 * real Lua 5.4 VM, against the built bundle and the mock roster service over loopback.
 * Async exports are called inside a thread (Citizen.CreateThread body), where they are awaited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LuaResource } from '../../../dev/emulator/lua-resource';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, expectedMember, type Harness, startHarness, strangerLicense } from '../harness';

const plain = <T>(value: T): T =>
  value === undefined || value === null ? value : JSON.parse(JSON.stringify(value));

/**
 * A JS value as a Lua script holds it (scheduler.lua unpacks msgpack into plain tables): a null
 * field is no key at all. Compared with what the VM hands back, where a table is read as an
 * array only when it has keys 1..n, so an empty one comes back as {}.
 */
function luaView<T>(value: T): T {
  if (Array.isArray(value)) return (value.length === 0 ? {} : value.map(luaView)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = luaView(v);
  return out as T;
}

/** A Lua string literal: printable ASCII as is, every other byte as a decimal escape. */
function lua(value: string): string {
  let out = '"';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte >= 0x20 && byte < 0x7f && c !== '"' && c !== '\\' ? c : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** Runs `return <expr>` with a pcall around it: a throw comes back as `THREW: …`. */
function guarded(expr: string): string {
  return `local ok, r = pcall(function() return ${expr} end)
if not ok then return 'THREW: ' .. tostring(r) end
return r`;
}

type Expected = ReturnType<typeof expectedMember>;

function sorted(member: unknown): Expected {
  const m = plain(member) as Expected;
  return { ...m, departments: [...m.departments].sort((a, b) => a.id.localeCompare(b.id)) };
}

async function start(): Promise<Harness> {
  const h = await startHarness({
    config: { rateLimit: { perMinute: 6000 } },
    beforeStart: (mock) => {
      for (const key of mock.keyRecords) key.perMinute = 6000;
    },
  });
  await eventually(() => h.logText().includes('connected to the roster'));
  return h;
}

async function join(h: Harness, loaded: unknown[], member: MockMember): Promise<number> {
  const connection = h.server.connectPlayer({ name: member.displayName, identifiers: [member.gameLicense] });
  const decision = await connection.decision;
  if (!decision.admitted) throw new Error(`${member.id} refused: ${decision.reason}`);
  await eventually(() => loaded.includes(decision.id));
  return decision.id;
}

function expectNoExportFailures(h: Harness) {
  expect(h.logText()).not.toMatch(/SCRIPT ERROR/);
  expect(h.logText()).not.toMatch(/export \w+ failed/);
}

const caseVariants = (s: string) => [s, s.toLowerCase(), s.toUpperCase()];

describe('exports from a Lua caller (colon calls through the Lua VM)', () => {
  let h: Harness;
  let vm: LuaResource;
  let id: number;
  let member: MockMember;
  const loaded: unknown[] = [];

  beforeAll(async () => {
    h = await start();
    h.caller.on('roster:playerLoaded', (src) => loaded.push(src));
    member = h.mock.data.memberWithSeveralDepartments();
    id = await join(h, loaded, member);
    vm = await h.server.createLuaResource('luacaller');
  });
  afterAll(async () => {
    vm?.close();
    await h?.close();
  });

  const run = (expr: string) => vm.run(guarded(expr));
  const thread = (expr: string) => vm.thread(guarded(expr));

  it('getMember gives the member, readable as Lua values', async () => {
    const expected = luaView(expectedMember(h, member));
    for (const src of [String(id), lua(String(id)), `${id}.0`]) {
      expect(sorted(await run(`exports.roster:getMember(${src})`))).toMatchObject(expected);
    }
    const summary = await vm.run(`
      local m = exports.roster:getMember(${id})
      local primary
      for i = 1, #m.departments do
        if m.departments[i].primary then primary = m.departments[i] end
      end
      return table.concat({ m.id, m.name, m.status, m.license, tostring(#m.departments),
        primary.shortName, primary.rank.name, math.type(primary.rank.position) }, '|')`);
    const primary = expected.departments.find((d) => d.primary)!;
    expect(summary).toBe(
      [
        member.id,
        member.displayName,
        member.status,
        member.gameLicense,
        String(expected.departments.length),
        primary.shortName,
        primary.rank!.name,
        'integer',
      ].join('|'),
    );
  });

  // Issue 10: a missing member is Lua nil itself (no null userdata), and an async export's
  // value comes back directly in the coroutine a chunk runs in (scheduler.lua).
  it('no member is nil inside Lua, for a sync and an awaited async export', async () => {
    const checks = await vm.run(`
      local m = exports.roster:getMember(99)
      local l = exports.roster:lookupLicense(${lua(strangerLicense)})
      local known = exports.roster:lookupLicense(${lua(member.gameLicense)})
      return table.concat({ type(m), tostring(m == nil), tostring(not m), type(l), tostring(l == nil),
        type(known), type(known.departments), known.license }, '|')`);
    expect(checks).toBe(
      ['nil', 'true', 'true', 'nil', 'true', 'table', 'table', member.gameLicense].join('|'),
    );
  });

  it('isOnRoster and getDepartments', async () => {
    expect(await run(`exports.roster:isOnRoster(${id})`)).toBe(true);
    expect(await run(`exports.roster:isOnRoster('${id}')`)).toBe(true);
    const departments = plain(await run(`exports.roster:getDepartments(${id})`)) as Expected['departments'];
    expect([...departments].sort((a, b) => a.id.localeCompare(b.id))).toMatchObject(
      luaView(expectedMember(h, member).departments),
    );
    expect(await vm.run(`return #exports.roster:getDepartments(${id})`)).toBe(departments.length);
  });

  it('isInDepartment by id, name and short name in any case', async () => {
    const held = expectedMember(h, member).departments;
    for (const d of held) {
      for (const k of [d.id, d.name, d.shortName].flatMap(caseVariants)) {
        expect(await run(`exports.roster:isInDepartment(${id}, ${lua(k)})`), k).toBe(true);
      }
    }
    for (const d of h.mock.data.data.departments.filter((x) => !held.some((y) => y.id === x.id))) {
      expect(await run(`exports.roster:isInDepartment(${id}, ${lua(d.shortName)})`), d.shortName).toBe(false);
    }
  });

  it('getRank: primary without a department (absent or nil), else the named department', async () => {
    const departments = expectedMember(h, member).departments;
    const primary = departments.find((d) => d.primary)!;
    expect(plain(await run(`exports.roster:getRank(${id})`))).toEqual(luaView(primary.rank));
    expect(plain(await run(`exports.roster:getRank(${id}, nil)`))).toEqual(luaView(primary.rank));
    for (const d of departments) {
      for (const k of [d.id, d.name, d.shortName].flatMap(caseVariants)) {
        expect(plain(await run(`exports.roster:getRank(${id}, ${lua(k)})`)), k).toEqual(luaView(d.rank));
      }
    }
    expect(await run(`exports.roster:getRank(${id}, 'No Such Department')`)).toBeNull();
  });

  it('hasRank and hasMinRank follow the ladder (1 = most senior)', async () => {
    for (const d of expectedMember(h, member).departments) {
      if (!d.rank) continue;
      const ladder = h.mock.data.data.ranks.filter((r) => r.departmentId === d.id);
      for (const target of ladder) {
        for (const rk of [target.name, target.id.toUpperCase()]) {
          expect(await run(`exports.roster:hasRank(${id}, ${lua(d.shortName)}, ${lua(rk)})`), rk).toBe(
            target.id === d.rank.id,
          );
          expect(await run(`exports.roster:hasMinRank(${id}, ${lua(d.name)}, ${lua(rk)})`), rk).toBe(
            d.rank.position <= target.position,
          );
        }
      }
      expect(await run(`exports.roster:hasMinRank(${id}, ${lua(d.id)}, 'No Such Rank')`)).toBe(false);
      expect(await run(`exports.roster:hasRank(${id}, ${lua(d.id)}, 'No Such Rank')`)).toBe(false);
    }
    const lspd = expectedMember(h, member).departments.find((d) => d.shortName === 'LSPD');
    if (lspd?.rank) {
      const sergeant = h.mock.data.rankByName('LSPD', 'Sergeant');
      expect(await run(`exports.roster:hasMinRank(${id}, 'LSPD', 'Sergeant')`)).toBe(
        lspd.rank.position <= sergeant.position,
      );
    }
  });

  it('lookupLicense inside a thread: member, stranger and malformed', async () => {
    expect(sorted(await thread(`exports.roster:lookupLicense(${lua(member.gameLicense)})`))).toMatchObject(
      luaView(expectedMember(h, member)),
    );
    const offline = h.mock.data.members.find((m) => m.id !== member.id && m.status === 'ACTIVE')!;
    expect(sorted(await thread(`exports.roster:lookupLicense(${lua(offline.gameLicense)})`))).toMatchObject(
      luaView(expectedMember(h, offline)),
    );
    expect(await thread(`exports.roster:lookupLicense(${lua(strangerLicense)})`)).toBeNull();
    for (const bad of [
      'nil',
      '',
      "'license:xyz'",
      `'license2:${'a'.repeat(40)}'`,
      `'${member.gameLicense.slice('license:'.length)}'`,
      "string.rep('x', 200000)",
      '42',
      '{}',
      `{ ${lua(member.gameLicense)} }`,
      `{ license = ${lua(member.gameLicense)} }`,
      'true',
      'function() end',
    ]) {
      expect(await thread(`exports.roster:lookupLicense(${bad})`), bad).toBeNull();
    }
    expectNoExportFailures(h);
  });

  it("lookupLicense at a chunk's top level is awaited too (files load in a coroutine, scheduler.lua)", async () => {
    expect(await vm.run(`return exports.roster:lookupLicense(${lua(member.gameLicense)}).id`)).toBe(
      member.id,
    );
  });

  it('refreshPlayer inside a thread answers the fresh member', async () => {
    for (const src of [String(id), lua(String(id))]) {
      expect(sorted(await thread(`exports.roster:refreshPlayer(${src})`))).toMatchObject(
        luaView(expectedMember(h, member)),
      );
    }
  });

  describe('bad arguments give the documented empty answer, never a throw', () => {
    const badSources = [
      'nil',
      '99',
      "'99'",
      '65535',
      '0',
      '-1',
      "'-1'",
      '1.5',
      "'1.5'",
      "' 1'",
      "'01'",
      "''",
      "'abc'",
      '0/0',
      'math.huge',
      '-math.huge',
      'math.maxinteger',
      'math.mininteger',
      "string.rep('9', 200000)",
      'true',
      'false',
      '{}',
      '{1}',
      '{ src = 1 }',
      'function() return 1 end',
    ];

    it.each(badSources)('src %s', async (src) => {
      expect(await run(`exports.roster:getMember(${src})`)).toBeNull();
      expect(await run(`exports.roster:isOnRoster(${src})`)).toBe(false);
      expect(await run(`next(exports.roster:getDepartments(${src})) == nil`)).toBe(true);
      expect(await vm.run(`return #exports.roster:getDepartments(${src})`)).toBe(0);
      expect(await run(`exports.roster:isInDepartment(${src}, 'LSPD')`)).toBe(false);
      expect(await run(`exports.roster:getRank(${src})`)).toBeNull();
      expect(await run(`exports.roster:getRank(${src}, 'LSPD')`)).toBeNull();
      expect(await run(`exports.roster:hasRank(${src}, 'LSPD', 'Officer')`)).toBe(false);
      expect(await run(`exports.roster:hasMinRank(${src}, 'LSPD', 'Cadet')`)).toBe(false);
      expect(await thread(`exports.roster:refreshPlayer(${src})`)).toBeNull();
      expect(await thread(`exports.roster:lookupLicense(${src})`)).toBeNull();
      expectNoExportFailures(h);
    });

    it('no arguments, and the dot-call mistake (the source becomes self and is dropped)', async () => {
      for (const call of ['exports.roster:', 'exports.roster.']) {
        const args = call.endsWith('.') ? `(${id})` : '()';
        expect(await run(`${call}getMember${args}`)).toBeNull();
        expect(await run(`${call}isOnRoster${args}`)).toBe(false);
        expect(await run(`next(${call}getDepartments${args}) == nil`)).toBe(true);
        expect(await run(`${call}isInDepartment${args}`)).toBe(false);
        expect(await run(`${call}getRank${args}`)).toBeNull();
        expect(await run(`${call}hasRank${args}`)).toBe(false);
        expect(await run(`${call}hasMinRank${args}`)).toBe(false);
        expect(await thread(`${call}lookupLicense${args}`)).toBeNull();
        expect(await thread(`${call}refreshPlayer${args}`)).toBeNull();
      }
      expectNoExportFailures(h);
    });

    const badKeys = [
      'nil',
      "''",
      "'   '",
      "'No Such Department'",
      "string.rep('x', 200000)",
      '0',
      '-1',
      '1.5',
      '0/0',
      'math.huge',
      'true',
      'false',
      '{}',
      "{ 'LSPD' }",
      "{ id = 'dept_lspd' }",
      "function() return 'LSPD' end",
    ];

    it.each(badKeys)('department %s for a joined member', async (dept) => {
      const d = expectedMember(h, member).departments.find((x) => x.rank)!;
      const rank = lua(d.rank!.name);
      expect(await run(`exports.roster:isInDepartment(${id}, ${dept})`)).toBe(false);
      if (dept !== 'nil') expect(await run(`exports.roster:getRank(${id}, ${dept})`)).toBeNull();
      expect(await run(`exports.roster:hasRank(${id}, ${dept}, ${rank})`)).toBe(false);
      expect(await run(`exports.roster:hasMinRank(${id}, ${dept}, ${rank})`)).toBe(false);
      expectNoExportFailures(h);
    });

    it.each(badKeys)('rank %s for a joined member', async (rank) => {
      const d = expectedMember(h, member).departments.find((x) => x.rank)!;
      expect(await run(`exports.roster:hasRank(${id}, ${lua(d.shortName)}, ${rank})`)).toBe(false);
      expect(await run(`exports.roster:hasMinRank(${id}, ${lua(d.shortName)}, ${rank})`)).toBe(false);
      expectNoExportFailures(h);
    });
  });
});

describe('refreshPlayer from Lua after the roster changes', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it('fires roster:playerUpdated, updates the state bag, and Lua sees the new rank', async () => {
    h = await start();
    const loaded: unknown[] = [];
    const updated: unknown[][] = [];
    h.caller.on('roster:playerLoaded', (src) => loaded.push(src));
    h.caller.on('roster:playerUpdated', (...args) => updated.push(plain(args)));
    const member = h.mock.data.memberWithSeveralDepartments();
    const id = await join(h, loaded, member);
    const vm = await h.server.createLuaResource('luacaller');
    try {
      const before = expectedMember(h, member);
      const primary = before.departments.find((d) => d.primary)!;
      const ladder = h.mock.data.data.ranks.filter((r) => r.departmentId === primary.id);
      const next = ladder.find((r) => r.id !== primary.rank!.id)!;
      h.mock.data.setMemberRank(member.id, next.id);
      const after = expectedMember(h, member);

      const fresh = await vm.thread(guarded(`exports.roster:refreshPlayer(${id})`));
      expect(sorted(fresh)).toMatchObject(luaView(after));
      await eventually(() => updated.length > 0);
      expect(updated).toHaveLength(1);
      const [src, now, previous] = updated[0]!;
      expect(src).toBe(id);
      expect(sorted(now)).toMatchObject(after);
      expect(sorted(previous)).toMatchObject(before);
      expect(plain(await vm.run(guarded(`exports.roster:getRank(${id})`)))).toEqual({
        id: next.id,
        name: next.name,
        position: next.position,
      });
      expect(
        await vm.run(guarded(`exports.roster:hasRank(${id}, ${lua(primary.shortName)}, ${lua(next.name)})`)),
      ).toBe(true);
      const bag = plain(h.caller.eval(`Player(${id}).state.roster`)) as Record<string, unknown>;
      expect(bag).not.toHaveProperty('license');
      const { license: _license, ...withoutLicense } = after;
      expect(sorted(bag)).toMatchObject(withoutLicense);
    } finally {
      vm.close();
    }
  });
});
