// A second server on the same roster, its clocks turned up: it reads the audit log every second
// and duty sessions every 2 s, so a change made in the dashboard and a member's hours both show
// within this run. The main server keeps the defaults (60 s and 300 s), which is what it spends
// when left running with the console or the panel open.
import { rmSync } from 'node:fs';
import { FxServer } from '../emulator';
import { ALL_SCOPES, type KeySpec } from '../mock-roster/api-keys';
import type { MockMember } from '../mock-roster/records';
import type { MockRoster } from '../mock-roster/server';
import { answerLine, type RosterExports } from './answers';
import { runDashboardChange } from './audit-feed';
import { type DutyExpected, hoursAnswer } from './duty-hours';
import { expectThat, waitFor } from './expectation';
import { joiner } from './joins';
import { consoleAnswer } from './log-follower';
import { problemLines } from './log-problems';
import { resourceFolder } from './resource-folder';
import { listenToRoster } from './roster-events';
import { secondServerCfg } from './server-cfg';

/** Its own key on the mock: its requests are told apart from the main server's. */
export const SECOND_SERVER_KEY: KeySpec = { name: 'second-server', id: 'secondserver', scopes: ALL_SCOPES };

/** `refresh` in its config.json (the defaults are 60 and 300). */
const CLOCKS = { auditSeconds: 1, intervalSeconds: 2 };

export interface SecondServerDeps {
  root: string;
  mock: MockRoster;
  print: (line: string) => void;
  /** An ACTIVE member, not online elsewhere, whom the mock gave recent duty sessions. */
  member: MockMember;
  /** The hours those sessions make. */
  duty: DutyExpected;
}

/**
 * The member joins the second server; their duty hours are read at its next refresh and `hours`
 * answers on its console; then staff suspend them in the dashboard and the audit feed brings it.
 * Returns that server's warnings and errors, if any (the main server's are checked apart).
 */
export async function runSecondServer(deps: SecondServerDeps): Promise<string[]> {
  const { root, mock, print, member, duty } = deps;
  const folder = resourceFolder(root, { refresh: CLOCKS, gate: { timeoutSeconds: 10 } });
  const apiKey = mock.keys[SECOND_SERVER_KEY.name]!;
  const server = new FxServer({ serverCfg: secondServerCfg({ baseUrl: mock.url, apiKey }) });
  try {
    await server.start();
    server.startResource('roster', folder);
    const caller = server.createScriptResource('caller');
    const roster = caller.exports.roster as unknown as RosterExports;
    const events = listenToRoster(caller);
    print(
      `config.json there: refresh ${JSON.stringify(CLOCKS)}, and its own key (${SECOND_SERVER_KEY.id}): the audit log read every ${CLOCKS.auditSeconds} s, duty sessions every ${CLOCKS.intervalSeconds} s`,
    );
    print(
      await waitFor('the second server to verify its key', () =>
        server.log.of('roster').find((line) => line.includes('connected to the roster')),
      ),
    );
    const join = joiner(server, print);
    const kim = await join(`Kim (member ${member.id}, ${member.status}, on duty this month)`, 'Kim', [
      member.gameLicense,
      'ip:127.0.0.40',
    ]);
    expectThat(kim.admitted, `the ACTIVE member ${member.id} was refused: ${JSON.stringify(kim)}`);
    const joined = performance.now();
    await waitFor(`roster:playerLoaded for player ${kim.id}`, () => events.loaded.has(kim.id));

    // Read at the first refresh after the join: `hours` knows them from then on.
    await waitFor(`player ${kim.id}'s duty hours`, () => roster.getDutyHours(kim.id) !== null, 10_000);
    const readMs = Math.round(performance.now() - joined);
    const answer = (await consoleAnswer(server, `hours ${kim.id}`)).find((e) => e.resource === 'roster');
    print(`hours ${kim.id} (the console, ${readMs} ms after the join) -> ${answer?.text ?? 'nothing'}`);
    expectThat(
      answer?.text === hoursAnswer(member.displayName, duty),
      `\`hours ${kim.id}\` should say "${hoursAnswer(member.displayName, duty)}"`,
    );
    print(answerLine(`exports.roster.getDutyHours(${kim.id})`, roster.getDutyHours(kim.id)));
    print(answerLine(`exports.roster.getDutyHours(${kim.id}, 30)`, roster.getDutyHours(kim.id, 30)));

    print('');
    print("-- there, a change in the roster's dashboard, read from the audit feed --");
    await runDashboardChange({
      caller,
      roster,
      mock,
      events,
      print,
      player: { src: kim.id, memberId: member.id },
      keyId: SECOND_SERVER_KEY.id!,
    });
    return problemLines(server.log.entries);
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
