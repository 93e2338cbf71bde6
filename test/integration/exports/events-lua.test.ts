/**
 * A Lua resource reacting to roster's events through AddEventHandler, in a real Lua 5.4 VM, the
 * way FXServer's Lua scheduler delivers them (data/shared/citizen/scripting/lua/scheduler.lua):
 * the member arrives as a plain table, a null field as no key, `source` is "" for a local event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LuaResource } from '../../../dev/emulator/lua-resource';
import { eventually, expectedMember, type Harness, startHarness } from '../harness';

/** Polls an async check (a Lua query) until it holds. */
async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("a Lua resource's AddEventHandler('roster:playerLoaded', …)", () => {
  let h: Harness;
  let vm: LuaResource;

  beforeAll(async () => {
    h = await startHarness();
    await eventually(() => h.logText().includes('connected to the roster'));
    vm = await h.server.createLuaResource('luaevents');
    await vm.run(`
      loaded, members = {}, {}
      AddEventHandler('roster:playerLoaded', function(src, member)
        local primary
        for _, d in ipairs(member.departments) do
          if d.primary then primary = d end
        end
        members[#members + 1] = member
        loaded[#loaded + 1] = {
          src = src, source = source, kind = type(member), id = member.id, name = member.name,
          license = member.license, count = #member.departments, departments = type(member.departments),
          primary = primary and primary.shortName, rank = primary and primary.rank and primary.rank.name,
          position = primary and primary.rank and math.type(primary.rank.position),
        }
      end)`);
  });
  afterAll(async () => {
    vm?.close();
    await h?.close();
  });

  it('receives the joined member as a plain table with nil for null fields', async () => {
    const member = h.mock.data.memberWithSeveralDepartments();
    const decision = await h.server.connectPlayer({
      name: member.displayName,
      identifiers: [member.gameLicense],
    }).decision;
    if (!decision.admitted) throw new Error(`refused: ${decision.reason}`);
    await until(async () => (await vm.run('return #loaded')) === 1);
    const got = (await vm.run('return loaded[1]')) as Record<string, unknown>;
    const expected = expectedMember(h, member);
    const primary = expected.departments.find((d) => d.primary)!;
    expect(got).toEqual({
      src: decision.id,
      source: '',
      kind: 'table',
      id: member.id,
      name: member.displayName,
      license: member.gameLicense,
      count: expected.departments.length,
      departments: 'table',
      primary: primary.shortName,
      rank: primary.rank!.name,
      position: 'integer',
    });
    // Every null field of the member (here in its departments) is simply absent in Lua: no
    // userdata null stands in for it.
    const nullFields = expected.departments.flatMap((d) =>
      Object.entries(d)
        .filter(([, v]) => v === null)
        .map(([k]) => [d.id, k] as const),
    );
    expect(nullFields.length).toBeGreaterThan(0);
    for (const [dept, field] of nullFields) {
      const kind = await vm.run(`
        for _, d in ipairs(members[1].departments) do
          if d.id == '${dept}' then return type(d.${field}) end
        end
        return 'no such department'`);
      expect(kind, `${dept}.${field}`).toBe('nil');
    }
    expect(h.logText()).not.toMatch(/SCRIPT ERROR/);
  });
});
