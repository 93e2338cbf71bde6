import type { LuaResource } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import { answerLine, type RosterExports } from './answers';
import { expectThat } from './expectation';

/** The Lua call the sandbox asks before and after the rank change. */
export const luaMinRankCall = (src: number) => `exports.roster:hasMinRank(${src}, 'LSPD', 'Sergeant')`;

/**
 * The exports asked about `src` (a member on the roster) from a JS resource and from Lua, the same
 * question in both. Returns the `hasMinRank(src, 'LSPD', 'Sergeant')` answer both gave.
 */
export async function runExportCalls(
  roster: RosterExports,
  lua: LuaResource,
  mock: MockRoster,
  src: number,
  memberId: string,
  print: (line: string) => void,
): Promise<boolean> {
  const ask = (call: string, value: unknown) => print(answerLine(call, value));
  print('-- exports, from a JS resource `caller` --');
  const member = roster.getMember(src);
  ask(`exports.roster.getMember(${src})`, member);
  expectThat(member?.id === memberId, `getMember(${src}) should be ${memberId}`);
  ask(`exports.roster.getRank(${src})`, roster.getRank(src));
  ask(`exports.roster.isOnRoster(${src})`, roster.isOnRoster(src));
  const minRank = roster.hasMinRank(src, 'LSPD', 'Sergeant');
  ask(`exports.roster.hasMinRank(${src}, 'LSPD', 'Sergeant')`, minRank);
  ask('exports.roster.getMember(999) (nobody)', roster.getMember(999));
  ask(
    `await exports.roster.lookupLicense(<Bob's license>)`,
    await roster.lookupLicense(mock.data.nonMemberLicense()),
  );

  print('');
  print('-- exports, from a Lua resource `luacaller` --');
  const luaAnswer = await lua.run(`return ${luaMinRankCall(src)}`);
  ask(luaMinRankCall(src), luaAnswer);
  expectThat(luaAnswer === minRank, `Lua (${luaAnswer}) and JS (${minRank}) disagree on hasMinRank`);
  return minRank;
}
