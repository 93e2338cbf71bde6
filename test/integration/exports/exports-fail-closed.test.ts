/**
 * With settings it cannot run on, the resource fails closed: every export it documents
 * (docs/exports.md: roster, rank changes, queue priority, duty hours, jobs, training) still
 * exists and gives its empty answer, from JS and from Lua, never "No such export". The list here
 * is the documented one, written out, not read from the code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LuaResource } from '../../../dev/emulator/lua-resource';
import { eventually, type Harness, startHarness, strangerLicense } from '../harness';

interface Documented {
  name: string;
  /** Arguments, as JS values and as Lua source. */
  args: unknown[];
  lua: string;
  async: boolean;
  /** The empty answer as a JS caller receives it. */
  empty: unknown;
}

const refused = { ok: false, reason: expect.stringMatching(/not set up/) };
const notEnrolled = { enrolled: false, reason: expect.stringMatching(/not set up/) };
const license = `'${strangerLicense}'`;

const DOCUMENTED: Documented[] = [
  { name: 'getMember', args: [1], lua: '1', async: false, empty: null },
  { name: 'isOnRoster', args: [1], lua: '1', async: false, empty: false },
  { name: 'getDepartments', args: [1], lua: '1', async: false, empty: [] },
  { name: 'isInDepartment', args: [1, 'LSPD'], lua: "1, 'LSPD'", async: false, empty: false },
  { name: 'getRank', args: [1], lua: '1', async: false, empty: null },
  { name: 'hasRank', args: [1, 'LSPD', 'Officer'], lua: "1, 'LSPD', 'Officer'", async: false, empty: false },
  {
    name: 'hasMinRank',
    args: [1, 'LSPD', 'Officer'],
    lua: "1, 'LSPD', 'Officer'",
    async: false,
    empty: false,
  },
  { name: 'lookupLicense', args: [strangerLicense], lua: license, async: true, empty: null },
  { name: 'refreshPlayer', args: [1], lua: '1', async: true, empty: null },
  {
    name: 'setRank',
    args: [1, 'LSPD', 'Officer', 0],
    lua: "1, 'LSPD', 'Officer', 0",
    async: true,
    empty: refused,
  },
  { name: 'getPriority', args: [1], lua: '1', async: false, empty: 0 },
  { name: 'lookupPriority', args: [1], lua: '1', async: true, empty: 0 },
  { name: 'getDutyHours', args: [1], lua: '1', async: false, empty: null },
  { name: 'getJob', args: [1], lua: '1', async: false, empty: null },
  { name: 'getTraining', args: [1], lua: '1', async: false, empty: null },
  { name: 'hasCompletedCourse', args: [1, 'Academy'], lua: "1, 'Academy'", async: false, empty: false },
  { name: 'isQualified', args: [1, 'LSPD'], lua: "1, 'LSPD'", async: false, empty: false },
  { name: 'assignCourse', args: [1, 'course_1'], lua: "1, 'course_1'", async: true, empty: notEnrolled },
  { name: 'getExpiringCertificates', args: [], lua: '', async: true, empty: [] },
  { name: 'getTrainingProgress', args: [1], lua: '1', async: true, empty: null },
];

/** What Lua hands back for a JS value: nil for null, an empty table (read back as {}) for []. */
const inLua = (value: unknown) => (Array.isArray(value) && value.length === 0 ? {} : value);

describe('failing closed on bad settings, every documented export gives its empty answer', () => {
  let h: Harness;
  let vm: LuaResource;

  beforeAll(async () => {
    h = await startHarness({ config: { gate: { onError: 'sometimes' } } });
    vm = await h.server.createLuaResource('luacaller');
  });
  afterAll(async () => {
    vm?.close();
    await h?.close();
  });

  it('the resource failed closed', () => {
    expect(h.logText()).toMatch(/not started: 1 problem\(s\) to fix/);
    expect(h.mock.counters.total).toBe(0);
  });

  it.each(DOCUMENTED)('$name from JS', async ({ name, args, async, empty }) => {
    const roster = h.caller.exports.roster! as Record<string, (...a: unknown[]) => unknown>;
    const answer = roster[name]!(...args);
    // An async export answers with a Promise in both modes, so a caller's `.then` never breaks.
    expect(typeof (answer as { then?: unknown })?.then === 'function').toBe(async);
    expect(await answer).toEqual(empty);
  });

  it.each(DOCUMENTED)('$name from Lua, inside a thread', async ({ name, lua, empty }) => {
    const answer = await vm.run(`local ok, r = pcall(function() return exports.roster:${name}(${lua}) end)
if not ok then return 'THREW: ' .. tostring(r) end
return r`);
    expect(answer).toEqual(inLua(empty));
  });

  it('the Qbox queue predicate of docs/queue-and-duty.md runs and places the player in no priority sub-queue', async () => {
    const placed = await vm.run(`local ok, r = pcall(function()
  return exports.roster:lookupPriority(65536) >= 40 or exports.roster:lookupPriority(65536) >= 10
end)
return ok and tostring(r) or ('THREW: ' .. tostring(r))`);
    expect(placed).toBe('false');
  });

  it('no export failed or threw on the way', () => {
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|No such export|export \w+ failed/);
  });
});

describe('running, the same documented exports exist', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await eventually(() => h.logText().includes('connected to the roster'));
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(DOCUMENTED)('$name', async ({ name, args, async }) => {
    const roster = h.caller.exports.roster! as Record<string, (...a: unknown[]) => unknown>;
    const answer = roster[name]!(...args);
    expect(typeof (answer as { then?: unknown })?.then === 'function').toBe(async);
    await answer;
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|export \w+ failed/);
  });
});
