// `npm start`: the resource end to end on this machine — a seeded mock roster, the owner's
// server.cfg, the built bundle in the FXServer emulator, scripted joins, export calls from JS and
// Lua, a rank change on the roster and its principal, rank changes from the game (the `rank`
// command), a suspension in the roster's dashboard reaching the server through the audit feed,
// `roster status`; then the training side against a mock learning service (a linked and an
// unlinked player), and one request to the owner's panel. `npm start -- --jobs` runs job sync with
// the Qbox stand-in instead (dev/sandbox/jobs.ts).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { FxServer, type LuaResource } from './emulator';
import { type MockLearning, startMockLearning } from './mock-learning/server';
import { startMockRoster } from './mock-roster/server';
import type { RosterExports } from './sandbox/answers';
import { AUDIT_SECONDS, runDashboardChange } from './sandbox/audit-feed';
import { runBurstPart } from './sandbox/burst';
import { expectThat, waitFor } from './sandbox/expectation';
import { runExportCalls } from './sandbox/export-calls';
import { runGameRankChanges } from './sandbox/game-rank';
import { runJobsSandbox } from './sandbox/jobs';
import { joiner, runJoins, scriptedMembers } from './sandbox/joins';
import { problemLines } from './sandbox/log-problems';
import { type PanelAccess, runPanelRequest } from './sandbox/panel';
import { ensureBundle, repoRoot, resourceFolder } from './sandbox/resource-folder';
import { runRosterChange } from './sandbox/roster-change';
import { listenToRoster } from './sandbox/roster-events';
import { sandboxServerCfg } from './sandbox/server-cfg';
import { runTrainingPart, trainingConfig } from './sandbox/training';

export type { PanelAccess } from './sandbox/panel';

export interface SandboxOptions {
  /** Where the narrative goes (default `console.log`). */
  print?: (line: string) => void;
  /**
   * Called with the owner's panel once the scripted session is done, before everything closes
   * (`npm start -- --panel` waits here until Ctrl+C; the browser test drives the page here).
   */
  panel?: (panel: PanelAccess) => Promise<void>;
}

/** What the run leaves for a test to check beyond the narrative. */
export interface SandboxResult {
  /** Every line of the server console (`[resource] text`), the resource's own lines included. */
  log: string[];
}

const BURST_SIZE = 50;
/** The burst uses members from this index on, so it never overlaps the scripted players. */
const BURST_FIRST_MEMBER = 10;

/** Runs the whole scripted session; throws `SandboxMismatch` when the resource does not behave. */
export async function runSandbox(options: SandboxOptions = {}): Promise<SandboxResult> {
  const print = options.print ?? ((line: string) => console.log(line));
  const began = performance.now();
  const root = repoRoot(import.meta.dirname);
  if (ensureBundle(root)) print('built dist/server.js (it was missing or older than src/)');

  const mock = await startMockRoster({ port: 0, members: 200, seed: 1 });
  let learning: MockLearning;
  try {
    learning = await startMockLearning({ port: 0, seed: 1 });
  } catch (error) {
    await mock.close();
    throw error;
  }
  // A long refresh interval: the rank change on the roster is read by `refreshPlayer`, on cue, and
  // the dashboard's change by the audit feed, read every AUDIT_SECONDS. Training is on, but no join
  // requires courses (`gate.requireCourses`): the roster decisions stand alone.
  const folder = resourceFolder(root, {
    refresh: { intervalSeconds: 300, auditSeconds: AUDIT_SECONDS },
    gate: { timeoutSeconds: 10 },
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
  const server = new FxServer({ serverCfg: sandboxServerCfg(cfg) });
  let lua: LuaResource | null = null;
  try {
    print(`mock roster: "${mock.community.name}", ${mock.data.members.length} members, at ${mock.url}`);
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
    const promoted = await runGameRankChanges({
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
    print("-- a change in the roster's dashboard, read from the audit feed --");
    const suspended = burst.players.find((p) => p.src !== promoted);
    expectThat(suspended !== undefined, 'the burst admitted nobody to suspend');
    await runDashboardChange({ caller, roster, mock, events, print, player: suspended });

    print('');
    print('-- console: roster status --');
    const logged = server.log.entries.length;
    server.executeCommand('roster status');
    const status = await waitFor('the roster status output', () => {
      const lines = server.log.entries.slice(logged).filter((e) => e.resource === 'roster');
      return lines.length >= 5 ? lines : false;
    });
    for (const line of status) print(line.text);

    print('');
    print('-- training --');
    await runTrainingPart({
      server,
      caller,
      roster: mock,
      learning,
      print,
      join,
      firstFreeMember: BURST_FIRST_MEMBER + BURST_SIZE,
    });

    print('');
    print("-- the owner's panel --");
    await runPanelRequest(panel, print);

    const problems = problemLines(server.log.entries);
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
    if (options.panel) {
      print(`owner's panel: ${panel.url} (token ${panel.token})`);
      await options.panel(panel);
    }
    return { log: server.log.lines };
  } finally {
    lua?.close();
    server.stop();
    await Promise.all([mock.close(), learning.close()]);
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `--panel`: keep the sandbox (and its panel) running until Ctrl+C. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    console.log('the sandbox keeps running with the panel open; press Ctrl+C to stop.');
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

async function main(): Promise<void> {
  try {
    // `--jobs`: job sync with the Qbox stand-in, instead of the main session.
    if (process.argv.includes('--jobs')) await runJobsSandbox();
    else await runSandbox(process.argv.includes('--panel') ? { panel: untilInterrupted } : {});
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
