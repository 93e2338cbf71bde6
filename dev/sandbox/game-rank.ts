import type { FxServer, ScriptResource } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import { lspdRank } from './answers';
import { expectThat, waitFor } from './expectation';
import { aceAllowed, aceLine } from './principals';
import type { RosterEventLog } from './roster-events';
import { SERGEANT_ACE } from './server-cfg';

export interface GameRankDeps {
  server: FxServer;
  caller: ScriptResource;
  mock: MockRoster;
  events: RosterEventLog;
  print: (line: string) => void;
  /** An LSPD Sergeant: may promote an Officer one step, not to her own rank. */
  sergeant: number;
  /** A player allowed `roster.manage` (server.cfg: group.admin), who may set any rank. */
  admin: number;
  /** Players online with their member ids; the one promoted is an LSPD Officer among them. */
  online: readonly { src: number; memberId: string }[];
}

/**
 * Rank changes from the game: the `rank` command, answered in the actor's chat. A Sergeant
 * promotes an Officer, is told to wait 3 s before her next change, may not raise them to her own
 * rank, and the admin does; each change fires
 * `roster:rankChanged` and `roster:playerUpdated`, and the principals follow.
 */
export async function runGameRankChanges(deps: GameRankDeps): Promise<number> {
  const { server, caller, mock, events, print, sergeant, admin } = deps;
  const officer = mock.data.rankByName('LSPD', 'Officer');
  const target = deps.online.find(({ memberId }) =>
    mock.data.assignmentsOf(memberId).some((a) => a.rankId === officer.id),
  );
  expectThat(target !== undefined, 'no LSPD Officer is online');
  const { src } = target;

  const rankCommand = async (actor: number, who: string, line: string): Promise<string> => {
    const sent = server.clientEvents.length;
    server.executeCommand(line, actor);
    const chat = await waitFor(`the answer to /${line}`, () =>
      server.clientEvents
        .slice(sent)
        .find((e) => e.event === 'chat:addMessage' && Number(e.target) === actor),
    );
    const [from, text = ''] = (chat.args[0] as { args: string[] }).args;
    print(`/${line} (${who}) -> chat [${from}] ${text}`);
    return text;
  };
  const followed = async (asked: number, rank: string) => {
    const change = await waitFor(`roster:rankChanged(${src}) to ${rank}`, () =>
      events.rankChanges.find((c) => c.src === src && c.at >= asked),
    );
    const label = change.department.shortName ?? change.department.name;
    print(
      `event roster:rankChanged(${src}): ${label} ${change.from?.name ?? 'none'} -> ${change.to.name}, actor ${change.actor}`,
    );
    const update = await waitFor(`roster:playerUpdated(${src}) to ${rank}`, () =>
      events.updates.find((u) => u.src === src && u.at >= asked),
    );
    print(
      `event roster:playerUpdated(${src}): LSPD ${lspdRank(update.previous)} -> ${lspdRank(update.member)}`,
    );
    expectThat(
      change.to.name === rank && lspdRank(update.member) === rank,
      `the events say ${change.to.name} / ${lspdRank(update.member)}, expected ${rank}`,
    );
  };

  print(aceLine(caller, src, SERGEANT_ACE));
  let asked = performance.now();
  const promoted = await rankCommand(sergeant, `player ${sergeant}, LSPD Sergeant`, `rank promote ${src}`);
  expectThat(promoted.includes('is now Senior Officer'), `the Sergeant's promotion said "${promoted}"`);
  await followed(asked, 'Senior Officer');

  // At once again: one change every 3 s per player; the answer says how long to wait, and she does.
  const early = await rankCommand(sergeant, `player ${sergeant}, LSPD Sergeant`, `rank promote ${src}`);
  const wait = /try again in (\d) s\.$/.exec(early);
  expectThat(wait !== null, `the Sergeant's promotion at once said "${early}"`);
  await new Promise((resolve) => setTimeout(resolve, Number(wait![1]) * 1000));
  const refused = await rankCommand(sergeant, `player ${sergeant}, LSPD Sergeant`, `rank promote ${src}`);
  expectThat(
    refused.startsWith('You may not set Sergeant'),
    `the Sergeant's second promotion said "${refused}"`,
  );

  asked = performance.now();
  const line = `rank set ${src} LSPD Sergeant`;
  const set = await rankCommand(admin, `player ${admin}, group.admin: roster.manage`, line);
  expectThat(set.includes('is now Sergeant'), `the admin's rank set said "${set}"`);
  await followed(asked, 'Sergeant');
  const record = server.log
    .of('roster')
    .findLast((l) => l.startsWith('rank change:') && l.includes(`target_player="${src}"`));
  if (record)
    print(
      `the resource's own record (console and rank-changes.log): ${record.slice('rank change: '.length)}`,
    );
  print(aceLine(caller, src, SERGEANT_ACE, ' now'));
  expectThat(aceAllowed(caller, src, SERGEANT_ACE), `player ${src}'s promotion did not give ${SERGEANT_ACE}`);
  return src;
}
