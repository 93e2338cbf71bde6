/**
 * Property-based: arbitrary values thrown at every roster export, from a JS caller
 * and from a Lua caller, against the built bundle in the emulator and the mock roster service.
 * No call may throw across the boundary; a non-player gets the documented empty answer, and a
 * joined player's department and rank answers agree with the mock's data.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LuaResource } from '../../../dev/emulator/lua-resource';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, type Harness, startHarness } from '../harness';

type Fn = (...args: unknown[]) => unknown;

const plain = <T>(value: T): T =>
  value === undefined || value === null ? value : JSON.parse(JSON.stringify(value));

/** What msgpack carries (no BigInt; FXServer's packer throws on it). */
const value = fc.anything({
  withBigInt: false,
  withBoxedValues: false,
  withMap: false,
  withSet: false,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withNullPrototype: true,
  withObjectString: true,
  maxDepth: 3,
});

const SYNC_EMPTY: Record<string, unknown> = {
  getMember: null,
  isOnRoster: false,
  getDepartments: [],
  isInDepartment: false,
  getRank: null,
  hasRank: false,
  hasMinRank: false,
};
const ASYNC_EMPTY: Record<string, unknown> = { lookupLicense: null, refreshPlayer: null };

interface Held {
  keys: Set<string>;
  rank: { id: string; name: string; position: number } | null;
  departmentId: string;
}

describe('exports under arbitrary arguments', () => {
  let h: Harness;
  let roster: Record<string, Fn>;
  let vm: LuaResource;
  let member: MockMember;
  let id: number;
  let held: Held[];
  let departmentKeys: string[];
  let rankKeys: string[];

  beforeAll(async () => {
    h = await startHarness({
      config: { rateLimit: { perMinute: 6000 } },
      beforeStart: (mock) => {
        for (const key of mock.keyRecords) key.perMinute = 6000;
      },
    });
    await eventually(() => h.logText().includes('connected to the roster'));
    const loaded: unknown[] = [];
    h.caller.on('roster:playerLoaded', (src) => loaded.push(src));
    member = h.mock.data.memberWithSeveralDepartments();
    const decision = await h.server.connectPlayer({ name: 'P', identifiers: [member.gameLicense] }).decision;
    if (!decision.admitted) throw new Error(decision.reason);
    id = decision.id;
    await eventually(() => loaded.includes(id));
    roster = h.caller.exports.roster!;
    vm = await h.server.createLuaResource('luacaller');
    const { data } = h.mock.data;
    held = h.mock.data.assignmentsOf(member.id).map((a) => {
      const d = data.departments.find((x) => x.id === a.departmentId)!;
      const r = a.rankId ? h.mock.data.rank(a.rankId)! : null;
      return {
        departmentId: d.id,
        keys: new Set([d.id, d.name, d.shortName].map((k) => k.toLowerCase())),
        rank: r ? { id: r.id, name: r.name, position: r.position } : null,
      };
    });
    departmentKeys = data.departments.flatMap((d) => [d.id, d.name, d.shortName]);
    rankKeys = data.ranks.flatMap((r) => [r.id, r.name]);
  });
  afterAll(async () => {
    vm?.close();
    await h?.close();
  });

  /** True when a value names the joined player (so it is not a "non-player"). */
  const isPlayer = (v: unknown) => v === id || v === String(id);

  const mixedCase = (keys: () => string[]) =>
    fc.tuple(fc.nat({ max: 10_000 }), fc.nat()).map(([i, bits]) => {
      const k = keys()[i % keys().length]!;
      return [...k].map((c, j) => ((bits >> (j % 30)) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
    });

  it('JS: every export, non-player source and arbitrary other arguments → the empty answer, no throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        value.filter((v) => !isPlayer(v)),
        value,
        value,
        async (src, a, b) => {
          for (const [name, empty] of Object.entries(SYNC_EMPTY)) {
            expect(plain(roster[name]!(src, a, b)), name).toEqual(empty);
          }
          for (const [name, empty] of Object.entries(ASYNC_EMPTY)) {
            if (name === 'lookupLicense') continue; // takes a license, below
            expect(await roster[name]!(src, a, b), name).toEqual(empty);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|export \w+ failed/);
  });

  it('JS: lookupLicense with anything that is not a license → null, no throw, no request', async () => {
    const before = h.mock.counters.total;
    await fc.assert(
      fc.asyncProperty(value, fc.string({ unit: 'binary', maxLength: 60 }), async (v, s) => {
        expect(await roster.lookupLicense!(v)).toBeNull();
        expect(await roster.lookupLicense!(`license:${s}`)).toBeNull();
      }),
      { numRuns: 300 },
    );
    // A `license:` + 40 hex string is astronomically unlikely from these arbitraries.
    expect(h.mock.counters.total).toBe(before);
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|export \w+ failed/);
  });

  it('JS: a joined player with arbitrary or mixed-case department and rank keys agrees with the mock', async () => {
    const departmentArg = fc.oneof(
      value,
      mixedCase(() => departmentKeys),
    );
    const rankArg = fc.oneof(
      value,
      mixedCase(() => rankKeys),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(id, String(id)), departmentArg, rankArg, async (src, dept, rank) => {
        const d = departmentOf(dept);
        expect(roster.isInDepartment!(src, dept)).toBe(d !== undefined);
        if (dept === null || dept === undefined) {
          expect(plain(roster.getRank!(src, dept))).toEqual(primaryRank());
        } else {
          expect(plain(roster.getRank!(src, dept))).toEqual(d?.rank ?? null);
        }
        const r = typeof rank === 'string' ? rank.toLowerCase() : undefined;
        const exact =
          d?.rank !== null &&
          d?.rank !== undefined &&
          (r === d.rank.id.toLowerCase() || r === d.rank.name.toLowerCase());
        expect(roster.hasRank!(src, dept, rank)).toBe(exact);
        const target =
          d && r !== undefined
            ? h.mock.data.data.ranks.find(
                (x) =>
                  x.departmentId === d.departmentId &&
                  (x.id.toLowerCase() === r || x.name.toLowerCase() === r),
              )
            : undefined;
        const atLeast = d?.rank && target ? d.rank.position <= target.position : exact;
        expect(roster.hasMinRank!(src, dept, rank)).toBe(atLeast);
      }),
      { numRuns: 400 },
    );
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|export \w+ failed/);
  });

  function departmentOf(dept: unknown): Held | undefined {
    if (typeof dept !== 'string') return undefined;
    return held.find((d) => d.keys.has(dept.toLowerCase()));
  }
  function isPrimary(d: Held): boolean {
    return (
      h.mock.data.assignmentsOf(member.id).find((a) => a.departmentId === d.departmentId)?.isPrimary ?? false
    );
  }
  function primaryRank() {
    return held.find(isPrimary)?.rank ?? null;
  }

  // ── Lua ────────────────────────────────────────────────────────────────────

  /** A Lua string literal with every non-printable byte escaped. */
  const luaString = (s: string) => {
    let out = '"';
    for (const byte of Buffer.from(s, 'utf8')) {
      const c = String.fromCharCode(byte);
      out +=
        byte >= 0x20 && byte < 0x7f && c !== '"' && c !== '\\' ? c : `\\${String(byte).padStart(3, '0')}`;
    }
    return `${out}"`;
  };
  const luaNumber = (n: number) =>
    Number.isNaN(n)
      ? '(0/0)'
      : n === Number.POSITIVE_INFINITY
        ? 'math.huge'
        : n === Number.NEGATIVE_INFINITY
          ? '(-math.huge)'
          : Object.is(n, -0)
            ? '(-0.0)'
            : Number.isInteger(n) && Math.abs(n) < 2 ** 53
              ? `(${n})`
              : `(${n.toPrecision(17)})`;

  /** Lua expressions for arbitrary Lua values: nil, booleans, numbers, strings, tables, functions. */
  const luaValue: fc.Arbitrary<{ code: string; player: boolean }> = fc.letrec<{
    v: { code: string; player: boolean };
  }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant({ code: 'nil', player: false }),
      fc.boolean().map((b) => ({ code: String(b), player: false })),
      fc.integer().map((n) => ({ code: `(${n})`, player: n === id })),
      fc.constantFrom('math.maxinteger', 'math.mininteger').map((code) => ({ code, player: false })),
      fc.double().map((n) => ({ code: luaNumber(n), player: n === id })),
      fc
        .string({ unit: 'grapheme', maxLength: 40 })
        .map((s) => ({ code: luaString(s), player: s === String(id) })),
      fc.constant({ code: 'function() return 1 end', player: false }),
      fc
        .array(tie('v'), { maxLength: 4 })
        .map((items) => ({ code: `{ ${items.map((i) => i.code).join(', ')} }`, player: false })),
      fc.array(fc.tuple(fc.string({ maxLength: 8 }), tie('v')), { maxLength: 4 }).map((entries) => ({
        code: `{ ${entries.map(([k, v]) => `[${luaString(k)}] = ${v.code === 'nil' ? 'false' : v.code}`).join(', ')} }`,
        player: false,
      })),
    ),
  })).v;

  it('Lua: every export, non-player source and arbitrary other arguments → the empty answer, no throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        luaValue.filter((v) => !v.player),
        luaValue,
        luaValue,
        async (src, a, b) => {
          // One chunk per run: each call under pcall; any throw is reported by name.
          const calls = Object.keys(SYNC_EMPTY)
            .map(
              (name) => `do
  local ok, r = pcall(function() return exports.roster:${name}(S, A, B) end)
  if not ok then return 'THREW in ${name}: ' .. tostring(r) end
  out['${name}'] = r == nil and '<nil>' or r
end`,
            )
            .join('\n');
          const code = `local S, A, B = ${src.code}, ${a.code}, ${b.code}
local out = {}
${calls}
return out`;
          const result = plain(await vm.run(code)) as Record<string, unknown> | string;
          expect(typeof result, String(result)).toBe('object');
          const answers = result as Record<string, unknown>;
          for (const [name, empty] of Object.entries(SYNC_EMPTY)) {
            const got = answers[name] === '<nil>' ? null : answers[name];
            // An empty Lua-side array comes back as an empty table: [] or {}.
            if (Array.isArray(empty)) expect(Object.keys(got as object), name).toEqual([]);
            else expect(got, name).toEqual(empty);
          }
          const refreshed = await vm.thread(`local ok, r = pcall(function()
  return exports.roster:refreshPlayer(${src.code}) end)
if not ok then return 'THREW: ' .. tostring(r) end
return r`);
          expect(refreshed).toBeNull();
          const looked = await vm.thread(`local ok, r = pcall(function()
  return exports.roster:lookupLicense(${src.code}) end)
if not ok then return 'THREW: ' .. tostring(r) end
return r`);
          expect(looked).toBeNull();
        },
      ),
      { numRuns: 150 },
    );
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|export \w+ failed/);
  });
});
