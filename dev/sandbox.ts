// `npm start`: the resource end to end on this machine — a seeded mock roster, the owner's
// server.cfg, the built bundle in the FXServer emulator, `roster doctor` once it is ready, scripted
// joins, export calls from JS and Lua, a rank change on the roster and its principal, rank changes
// from the game (the `rank` command), `roster status`, the training side against a mock learning
// service, queue priority with ConnectQueue, and a second server whose clocks run fast (duty hours
// and a suspension in the roster's dashboard arriving through the audit feed); then the owner's
// console, where they type commands into the running server (dev/sandbox/console.ts).
// `npm start -- --jobs` runs job sync with the Qbox stand-in instead (dev/sandbox/jobs.ts);
// `npm start -- --share`, two servers sharing one roster through a MariaDB (dev/sandbox/share.ts).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { FxServer, type LuaResource } from './emulator';
import { type MockLearning, startMockLearning } from './mock-learning/server';
import { type MockRoster, startMockRoster } from './mock-roster/server';
import type { RosterExports } from './sandbox/answers';
import { runBurstPart } from './sandbox/burst';
import { type ConsoleSource, runConsole } from './sandbox/console';
import { runDoctorPart } from './sandbox/doctor';
import { addRecentDuty, RECENT_HOURS } from './sandbox/duty-hours';
import { expectThat, waitFor } from './sandbox/expectation';
import { runExportCalls } from './sandbox/export-calls';
import { runGameRankChanges } from './sandbox/game-rank';
import { runJobsSandbox } from './sandbox/jobs';
import { joiner, runJoins, scriptedMembers } from './sandbox/joins';
import { consoleAnswer } from './sandbox/log-follower';
import { problemLines } from './sandbox/log-problems';
import { type PanelAccess, runPanelRequest } from './sandbox/panel';
import { PRIORITY_RULES, runQueuePart } from './sandbox/queue-priority';
import { ensureBundle, repoRoot, resourceFolder } from './sandbox/resource-folder';
import { runRosterChange } from './sandbox/roster-change';
import { listenToRoster } from './sandbox/roster-events';
import { runSecondServer, SECOND_SERVER_KEY } from './sandbox/second-server';
import { sandboxServerCfg } from './sandbox/server-cfg';
import { runShareSandbox } from './sandbox/share';
import { runTrainingPart, trainingConfig } from './sandbox/training';

export type { PanelAccess } from './sandbox/panel';

/** The running sandbox, for a tool or test that looks behind the panel. */
export interface RunningSandbox {
  server: FxServer;
  /** The mock roster service: every request it received is in `counters.log`. */
  roster: MockRoster;
  learning: MockLearning;
}

export interface SandboxOptions {
  /** Where the narrative goes (default `console.log`). */
  print?: (line: string) => void;
  /**
   * The owner's console once the scripted session is done: commands typed (or piped) into the
   * running server, whose own lines are shown meanwhile. None: the session just ends.
   */
  console?: ConsoleSource;
  /**
   * Called with the owner's panel once the scripted session (and the console) are done, before
   * everything closes (`npm start -- --panel` without a terminal waits here until Ctrl+C; the
   * browser test drives the page here).
   */
  panel?: (panel: PanelAccess, running: RunningSandbox) => Promise<void>;
}

/** What the run leaves for a test to check beyond the narrative. */
export interface SandboxResult {
  /** Every line of the server console (`[resource] text`), the resource's own lines included. */
  log: string[];
}

const BURST_SIZE = 50;
/** The burst uses members from this index on, so it never overlaps the scripted players. */
const BURST_FIRST_MEMBER = 10;
/** The training part takes its two players from here on (after the burst's). */
const TRAINING_FIRST_MEMBER = BURST_FIRST_MEMBER + BURST_SIZE;
/** The queue part's three players, from here on. */
const QUEUE_FIRST_MEMBER = 100;
/** The second server's player is the first ACTIVE member from here on. */
const SECOND_SERVER_FIRST_MEMBER = 150;

/** Runs the whole scripted session; throws `SandboxMismatch` when the resource does not behave. */
export async function runSandbox(options: SandboxOptions = {}): Promise<SandboxResult> {
  const print = options.print ?? ((line: string) => console.log(line));
  const began = performance.now();
  const root = repoRoot(import.meta.dirname);
  if (ensureBundle(root)) print('built dist/server.js (it was missing or older than src/)');

  const mock = await startMockRoster({ port: 0, members: 200, seed: 1, keys: [SECOND_SERVER_KEY] });
  let learning: MockLearning;
  try {
    learning = await startMockLearning({ port: 0, seed: 1 });
  } catch (error) {
    await mock.close();
    throw error;
  }
  // The owner's defaults for the clocks (the audit log every 60 s, duty sessions and the safety-net
  // refresh every 300 s): what this server spends is what an installed one does, left running with
  // the console or the panel open. What must show within the run on a clock runs on the second
  // server. Training is on, but no join requires courses (`gate.requireCourses`): the roster
  // decisions stand alone.
  const folder = resourceFolder(root, {
    gate: { timeoutSeconds: 10 },
    queue: { priority: PRIORITY_RULES },
    training: trainingConfig(learning),
  });
  const webToken = randomBytes(18).toString('base64url');
  // Alice (an LSPD Cadet), and Grace, whom the server.cfg makes an admin.
  const { member, admin } = scriptedMembers(mock);
  const cfg = {
    baseUrl: mock.url,
    apiKey: mock.keys.full,
    trainingApiKey: learning.keys.read,
    webToken,
    adminLicense: admin.gameLicense,
    adminLabel: `Grace (${admin.id}) is an admin`,
  };
  // Kim, the second server's player; she, Alice and Grace were on duty this month.
  const kim = mock.data.members.slice(SECOND_SERVER_FIRST_MEMBER).find((m) => m.status === 'ACTIVE');
  expectThat(
    kim !== undefined,
    `the mock roster has no ACTIVE member from #${SECOND_SERVER_FIRST_MEMBER} on`,
  );
  const onDuty = { Alice: member, Grace: admin, Kim: kim };
  for (const m of Object.values(onDuty)) addRecentDuty(mock, m.id);
  const server = new FxServer({ serverCfg: sandboxServerCfg(cfg) });
  let lua: LuaResource | null = null;
  try {
    print(`mock roster: "${mock.community.name}", ${mock.data.members.length} members, at ${mock.url}`);
    const names = Object.entries(onDuty).map(([name, m]) => `${name} (${m.id})`);
    print(
      `mock: duty sessions this month for ${names.join(', ')}: ${RECENT_HOURS.week} h in the last 7 days, ${RECENT_HOURS.month} h in 30`,
    );
    print('');
    print('-- server.cfg (API keys shortened here) --');
    for (const line of sandboxServerCfg(cfg, 'keys cut').split('\n')) print(line);
    print('');
    await server.start();
    server.startResource('roster', folder);
    // The emulator's own HTTP server: FXServer's game port, where SetHttpHandler answers.
    const panel: PanelAccess = { url: `${server.httpUrl}/roster/`, token: webToken };
    print(`owner's panel: ${panel.url} (token ${panel.token})`);
    const caller = server.createScriptResource('caller');
    const roster = caller.exports.roster as unknown as RosterExports;
    const events = listenToRoster(caller);
    // The resource's own startup line, as the server console shows it.
    const startup = await waitFor('the resource to verify its key', () =>
      server.log.of('roster').find((line) => line.includes('connected to the roster')),
    );
    print(startup);

    print('');
    print('-- roster doctor, once the resource is ready --');
    await runDoctorPart(server, print);

    print('');
    print('-- joins --');
    const join = joiner(server, print);
    const { alice, grace } = await runJoins(mock, join);
    print('');
    const burst = await runBurstPart(server, mock, BURST_FIRST_MEMBER, BURST_SIZE, print);

    await waitFor(`roster:playerLoaded for player ${alice}`, () => events.loaded.has(alice));
    print('');
    lua = await server.createLuaResource('luacaller');
    await runExportCalls(roster, lua, mock, alice, member.id, print);

    print('');
    print('-- a rank change on the roster, and the principal roster.lspd.sergeant --');
    await runRosterChange({
      server,
      caller,
      roster,
      lua,
      mock,
      events,
      print,
      src: alice,
      memberId: member.id,
    });

    print('');
    print('-- rank changes from the game: the `rank` command --');
    await runGameRankChanges({
      server,
      caller,
      mock,
      events,
      print,
      sergeant: alice,
      admin: grace,
      online: burst.players,
    });

    print('');
    print('-- console: roster status --');
    const status = await consoleAnswer(server, 'roster status');
    for (const line of status) if (line.resource === 'roster') print(line.text);

    print('');
    print('-- training --');
    await runTrainingPart({
      server,
      caller,
      roster: mock,
      learning,
      print,
      join,
      firstFreeMember: TRAINING_FIRST_MEMBER,
    });

    print('');
    print('-- queue priority: ConnectQueue in front of the gate --');
    await runQueuePart({ server, mock, roster, join, print, firstFreeMember: QUEUE_FIRST_MEMBER });

    print('');
    print('-- a second server on the same roster, its clocks turned up --');
    const secondProblems = await runSecondServer({
      root,
      mock,
      print,
      member: kim,
      duty: RECENT_HOURS,
    });

    print('');
    print("-- the owner's panel --");
    await runPanelRequest(panel, print);

    const problems = [...problemLines(server.log.entries), ...secondProblems];
    if (problems.length > 0) {
      print('');
      print(`-- the server console's warnings and errors (${problems.length}) --`);
      for (const line of problems.slice(0, 10)) print(line);
    }
    expectThat(
      !problems.some((line) => line.includes('SCRIPT ERROR')),
      'the resource raised a SCRIPT ERROR (printed above)',
    );
    print('');
    print(`sandbox finished in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    if (options.console) {
      print(
        "the server keeps running: the audit log is read every 60 s, duty sessions every 300 s (a player's hours are known from the first read after they joined)",
      );
      await runConsole(options.console, { server, roster, print });
    }
    if (options.panel) {
      print(`owner's panel: ${panel.url} (token ${panel.token})`);
      await options.panel(panel, { server, roster: mock, learning });
    }
    return { log: server.log.lines };
  } finally {
    lua?.close();
    server.stop();
    await Promise.all([mock.close(), learning.close()]);
    rmSync(folder, { recursive: true, force: true });
  }
}

const USAGE = `npm start [-- --panel | --jobs | --share | --help]

The resource end to end on this machine: a mock roster service, the FXServer emulator with the
built bundle, scripted players and changes (about 10 s), then the server console.

  (nothing)  After the scripted session, a prompt: type console commands into the running server
             (roster status, roster doctor, roster lookup 1, roster refresh all, rank promote 1,
             hours 1, players, help); the server's own lines print above the prompt.
             exit, Ctrl+D or Ctrl+C stops it.
             When stdin is not a terminal (CI, a pipe, a file), the commands are read from it one
             a line, each answer printed before the next, and the sandbox stops at its end:
               printf 'roster status\\nhours 1\\n' | npm start
               npm start < /dev/null          (no commands: just the session)
  --panel    Without a terminal: once stdin ends, keep the server and the owner's panel running
             until Ctrl+C (with one, the panel is open as long as the prompt is).
  --jobs     Job sync with the Qbox stand-in, instead of the session above.
  --share    Two servers sharing one roster through a MariaDB of the sandbox's own (needs
             mariadbd: sh dev/mariadb/install.sh), instead of the session above.
  --help     This text.`;

const OPTIONS = new Set(['--panel', '--jobs', '--share', '--help', '-h']);

/** Without a terminal, `--panel`: keep the sandbox (and its panel) running until Ctrl+C. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    console.log('the sandbox keeps running with the panel open; press Ctrl+C to stop.');
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => !OPTIONS.has(arg));
  if (unknown.length > 0 || args.includes('--help') || args.includes('-h')) {
    if (unknown.length > 0) console.error(`unknown option ${unknown.join(' ')}\n`);
    console.log(USAGE);
    process.exitCode = unknown.length > 0 ? 2 : 0;
    return;
  }
  const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
  try {
    // `--jobs`: job sync with the Qbox stand-in, instead of the main session.
    if (args.includes('--jobs')) await runJobsSandbox();
    else if (args.includes('--share')) {
      if (!(await runShareSandbox())) process.exitCode = 1;
    } else
      await runSandbox({
        console: terminal ? { input: process.stdin, terminal: process.stdout } : { input: process.stdin },
        ...(args.includes('--panel') && !terminal ? { panel: untilInterrupted } : {}),
      });
  } catch (error) {
    console.error(`sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
  // Everything was closed; if a handle still holds the process, say so instead of hanging.
  setTimeout(() => {
    console.error('sandbox: something still holds the process open after cleanup; exiting.');
    process.exit(process.exitCode ?? 2);
  }, 3000).unref();
}

// Run when this file (or its bundle, .build/dev/sandbox.mjs) is the entry; not when another dev
// tool bundles it in (their import.meta.url is then the same file).
if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  /sandbox\.[mt]?[jt]s$/.test(process.argv[1])
)
  void main();
