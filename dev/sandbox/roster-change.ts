import type { FxServer, LuaResource, ScriptResource } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import { answerLine, describe, lspdRank, type MemberAnswer, type RosterExports } from './answers';
import { expectThat, waitFor } from './expectation';
import { luaMinRankCall } from './export-calls';
import { aceAllowed, aceLine, principalsLine } from './principals';
import type { RosterEventLog } from './roster-events';
import { SERGEANT_ACE } from './server-cfg';

export interface RosterChangeDeps {
  server: FxServer;
  caller: ScriptResource;
  roster: RosterExports;
  lua: LuaResource;
  mock: MockRoster;
  events: RosterEventLog;
  print: (line: string) => void;
  /** The player promoted: an LSPD member below Sergeant. */
  src: number;
  memberId: string;
}

/**
 * A promotion to LSPD Sergeant made on the roster, read on cue with `refreshPlayer`: the update
 * event, the exports (JS and Lua), the state bag and the principals all follow.
 */
export async function runRosterChange(deps: RosterChangeDeps): Promise<void> {
  const { server, caller, roster, lua, mock, events, print, src, memberId } = deps;
  const ask = (call: string, value: unknown) => print(answerLine(call, value));
  print(aceLine(caller, src, SERGEANT_ACE));
  expectThat(!aceAllowed(caller, src, SERGEANT_ACE), `player ${src} is allowed ${SERGEANT_ACE} before`);
  const lspd = mock.data.assignmentsOf(memberId).find((a) => a.departmentId === 'dept_lspd');
  expectThat(lspd !== undefined, `${memberId} has no LSPD assignment in the mock`);
  const oldRank = lspd.rankId ? mock.data.rank(lspd.rankId) : undefined;
  const sergeant = mock.data.rankByName('LSPD', 'Sergeant');
  mock.data.setMemberRank(memberId, sergeant.id);
  print(`mock: ${memberId}'s LSPD rank ${oldRank?.name ?? 'none'} -> ${sergeant.name}`);
  const asked = performance.now();
  ask(`await exports.roster.refreshPlayer(${src})`, await roster.refreshPlayer(src));
  const update = await waitFor('roster:playerUpdated', () => events.updates.find((u) => u.src === src), 3000);
  print(
    `event roster:playerUpdated(${update.src}): LSPD ${lspdRank(update.previous)} -> ${lspdRank(update.member)} (${Math.round(update.at - asked)} ms after the refresh was asked)`,
  );
  expectThat(
    lspdRank(update.member) === sergeant.name,
    `the update carries LSPD rank ${lspdRank(update.member)}, expected ${sergeant.name}`,
  );
  const minRank = roster.hasMinRank(src, 'LSPD', 'Sergeant');
  const luaAnswer = await lua.run(`return ${luaMinRankCall(src)}`);
  ask(`exports.roster.hasMinRank(${src}, 'LSPD', 'Sergeant') now`, minRank);
  ask(`${luaMinRankCall(src)} now`, luaAnswer);
  expectThat(minRank && luaAnswer === true, 'hasMinRank did not follow the promotion to Sergeant');
  const bag = server.bags.writes.findLast((w) => w.bag === `player:${src}` && w.key === 'roster');
  const bagValue = caller.eval(`Player(${src}).state.roster`) as MemberAnswer | null;
  print(
    `Player(${src}).state.roster -> ${describe(bagValue)} (replicated: ${bag?.replicated ?? 'never set'})`,
  );
  expectThat(lspdRank(bagValue) === sergeant.name, 'the state bag did not follow the rank change');
  print(aceLine(caller, src, SERGEANT_ACE, ' now'));
  expectThat(aceAllowed(caller, src, SERGEANT_ACE), `roster.lspd.sergeant did not give ${SERGEANT_ACE}`);
  print(principalsLine(server, src, mock.data.member(memberId)!.gameLicense));
}
