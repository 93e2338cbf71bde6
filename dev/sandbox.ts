// `npm start`: the resource end to end on this machine — a seeded mock roster, the built bundle in
// the FXServer emulator, scripted joins, export calls from JS and Lua, a rank change, `roster status`;
// then the training side against a mock learning service: a linked and an unlinked player.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { FxServer, type LuaResource } from './emulator';
import { type MockLearning, startMockLearning } from './mock-learning/server';
import { startMockRoster } from './mock-roster/server';
import { connectBurst } from './sandbox/burst';
import { expectThat, waitFor } from './sandbox/expectation';
import { ensureBundle, repoRoot, resourceFolder } from './sandbox/resource-folder';
import { runTrainingPart, trainingConfig } from './sandbox/training';

export interface SandboxOptions {
  /** Where the narrative goes (default `console.log`). */
  print?: (line: string) => void;
  /**
   * Called with the owner's panel once the scripted session is done, before everything closes
   * (`npm start -- --panel` waits here until Ctrl+C; the browser test drives the page here).
   */
  panel?: (panel: PanelAccess) => Promise<void>;
}

/** Where the sandbox's owner's panel answers, and the token that opens it. */
export interface PanelAccess {
  url: string;
  token: string;
}

/** A member as the resource hands it across exports (the fields the sandbox prints). */
interface MemberAnswer {
  id: string;
  name: string;
  status: string;
  departments: { shortName: string | null; name: string; primary: boolean; rank: RankAnswer | null }[];
}
interface RankAnswer {
  id: string;
  name: string;
  position: number;
}

/** The exports the sandbox calls, as a caller resource sees them. */
interface RosterExports {
  getMember(src: number): MemberAnswer | null;
  getRank(src: number, department?: string): RankAnswer | null;
  isOnRoster(src: number): boolean;
  hasMinRank(src: number, department: string, rank: string): boolean;
  lookupLicense(license: string): Promise<MemberAnswer | null>;
  refreshPlayer(src: number): Promise<MemberAnswer | null>;
}

const BURST_SIZE = 50;
/** The burst uses members from this index on, so it never overlaps the scripted players. */
const BURST_FIRST_MEMBER = 10;

/** Runs the whole scripted session; throws `SandboxMismatch` when the resource does not behave. */
export async function runSandbox(options: SandboxOptions = {}): Promise<void> {
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
  // A long refresh interval: the rank change below is picked up by `refreshPlayer`, on cue.
  // Training is on, but no join requires courses (`gate.requireCourses`): the roster decisions stand alone.
  const folder = resourceFolder(root, {
    refresh: { intervalSeconds: 300 },
    gate: { timeoutSeconds: 10 },
    training: trainingConfig(learning),
  });
  const webToken = randomBytes(18).toString('base64url');
  const server = new FxServer({
    convars: {
      roster_api_key: mock.keys.full,
      roster_base_url: mock.url,
      roster_training_api_key: learning.keys.read,
      roster_web_token: webToken,
    },
    convarPermissions: [
      ['roster', 'roster_api_key'],
      ['roster', 'roster_training_api_key'],
    ],
  });
  let lua: LuaResource | null = null;
  try {
    const community = mock.community.name;
    print(`mock roster: "${community}", ${mock.data.members.length} members, at ${mock.url}`);
    await server.start();
    server.startResource('roster', folder);
    // The emulator's own HTTP server: FXServer's game port, where SetHttpHandler answers.
    const panel: PanelAccess = { url: `${server.httpUrl}/roster/`, token: webToken };
    print(`owner's panel: ${panel.url} (token ${panel.token})`);
    const caller = server.createScriptResource('caller');
    const roster = caller.exports.roster as unknown as RosterExports;
    const loaded = new Map<number, unknown>();
    const updates: { src: number; member: MemberAnswer | null; previous: MemberAnswer | null; at: number }[] =
      [];
    caller.on('roster:playerLoaded', (src, member) => loaded.set(Number(src), member));
    caller.on('roster:playerUpdated', (src, member, previous) =>
      updates.push({
        src: Number(src),
        member: member as MemberAnswer | null,
        previous: previous as MemberAnswer | null,
        at: performance.now(),
      }),
    );
    // The resource's own startup line, as the server console shows it.
    const startup = await waitFor('the resource to verify its key', () =>
      server.log.of('roster').find((line) => line.includes('connected to the roster')),
    );
    print(startup);

    print('');
    print('-- joins --');
    const member = mock.data.members[0]!;
    const suspended = mock.data.suspendedMember();
    const join = async (label: string, name: string, identifiers: string[]) => {
      const t0 = performance.now();
      const decision = await server.connectPlayer({ name, identifiers }).decision;
      const ms = Math.round(performance.now() - t0);
      print(
        `${label.padEnd(44)} -> ${decision.admitted ? `admitted as player ${decision.id}` : `refused: "${decision.reason}"`} (${ms} ms)`,
      );
      return decision;
    };
    const alice = await join(`Alice (member ${member.id}, ${member.status})`, 'Alice', [
      member.gameLicense,
      'ip:127.0.0.2',
    ]);
    expectThat(alice.admitted, `the ACTIVE member ${member.id} was refused: ${JSON.stringify(alice)}`);
    const bob = await join('Bob (not on the roster)', 'Bob', [mock.data.nonMemberLicense(), 'ip:127.0.0.3']);
    expectThat(
      !bob.admitted && bob.reason.includes(`not on the ${community} roster`),
      `the non-member should be refused with the roster message, got ${JSON.stringify(bob)}`,
    );
    const carol = await join(`Carol (member ${suspended.id}, ${suspended.status})`, 'Carol', [
      suspended.gameLicense,
      'ip:127.0.0.4',
    ]);
    expectThat(
      !carol.admitted && carol.reason.includes('SUSPENDED'),
      `the suspended member should be refused naming the status, got ${JSON.stringify(carol)}`,
    );
    const dave = await join('Dave (no license: identifier)', 'Dave', ['discord:123456789', 'ip:127.0.0.5']);
    expectThat(
      !dave.admitted && dave.reason.includes('No Rockstar license'),
      `the player without a license should be refused with the no-license message, got ${JSON.stringify(dave)}`,
    );

    print('');
    print(`-- a burst of ${BURST_SIZE} members connecting at once --`);
    const burst = await connectBurst(server, mock, BURST_FIRST_MEMBER, BURST_SIZE);
    print(
      `burst: ${burst.admitted}/${BURST_SIZE} admitted, ${burst.refused} refused (expected ${burst.expectedAdmitted} admitted: the ACTIVE ones)`,
    );
    for (const [reason, n] of burst.refusalReasons) print(`  ${n} x "${reason}"`);
    const endpoints = Object.entries(burst.byEndpoint)
      .map(([endpoint, n]) => `${n} ${endpoint}`)
      .join(', ');
    print(`burst: the mock received ${burst.requests} API request(s) for them (${endpoints || 'none'})`);
    print(`burst: the slowest player waited ${Math.round(burst.slowestMs)} ms for a decision`);
    expectThat(
      burst.admitted === burst.expectedAdmitted,
      `the burst admitted ${burst.admitted}, expected ${burst.expectedAdmitted}`,
    );

    const src = alice.id;
    await waitFor(`roster:playerLoaded for player ${src}`, () => loaded.has(src));
    print('');
    print('-- exports, from a JS resource `caller` --');
    const ask = (call: string, value: unknown) => print(`${call.padEnd(52)} -> ${describe(value)}`);
    const getMember = roster.getMember(src);
    ask(`exports.roster.getMember(${src})`, getMember);
    expectThat(getMember?.id === member.id, `getMember(${src}) should be ${member.id}`);
    const rankBefore = roster.getRank(src);
    ask(`exports.roster.getRank(${src})`, rankBefore);
    ask(`exports.roster.isOnRoster(${src})`, roster.isOnRoster(src));
    const minBefore = roster.hasMinRank(src, 'LSPD', 'Sergeant');
    ask(`exports.roster.hasMinRank(${src}, 'LSPD', 'Sergeant')`, minBefore);
    ask(`exports.roster.getMember(999) (nobody)`, roster.getMember(999));
    ask(
      `await exports.roster.lookupLicense(<Bob's license>)`,
      await roster.lookupLicense(mock.data.nonMemberLicense()),
    );

    print('');
    print('-- exports, from a Lua resource `luacaller` --');
    lua = await server.createLuaResource('luacaller');
    const luaCall = `exports.roster:hasMinRank(${src}, 'LSPD', 'Sergeant')`;
    const luaBefore = await lua.run(`return ${luaCall}`);
    ask(luaCall, luaBefore);
    expectThat(luaBefore === minBefore, `Lua (${luaBefore}) and JS (${minBefore}) disagree on hasMinRank`);

    print('');
    print('-- a rank change on the roster --');
    // Promote a junior officer to Sergeant, or demote a senior one to Officer, so the answer flips.
    const lspd = mock.data.assignmentsOf(member.id).find((a) => a.departmentId === 'dept_lspd');
    expectThat(lspd !== undefined, `${member.id} has no LSPD assignment in the mock`);
    const oldRank = lspd.rankId ? mock.data.rank(lspd.rankId) : undefined;
    const newRank = mock.data.rankByName('LSPD', minBefore ? 'Officer' : 'Sergeant');
    mock.data.setMemberRank(member.id, newRank.id);
    print(`mock: ${member.id}'s LSPD rank ${oldRank?.name ?? 'none'} -> ${newRank.name}`);
    const asked = performance.now();
    const refreshed = await roster.refreshPlayer(src);
    ask(`await exports.roster.refreshPlayer(${src})`, refreshed);
    const update = await waitFor('roster:playerUpdated', () => updates.find((u) => u.src === src), 3000);
    print(
      `event roster:playerUpdated(${update.src}): LSPD ${lspdRank(update.previous)} -> ${lspdRank(update.member)} (${Math.round(update.at - asked)} ms after the refresh was asked)`,
    );
    expectThat(
      lspdRank(update.member) === newRank.name,
      `the update carries LSPD rank ${lspdRank(update.member)}, expected ${newRank.name}`,
    );
    const minAfter = roster.hasMinRank(src, 'LSPD', 'Sergeant');
    const luaAfter = await lua.run(`return ${luaCall}`);
    ask(`exports.roster.hasMinRank(${src}, 'LSPD', 'Sergeant') now`, minAfter);
    ask(`${luaCall} now`, luaAfter);
    expectThat(minAfter === !minBefore && luaAfter === minAfter, 'hasMinRank did not follow the rank change');
    const bag = server.bags.writes.findLast((w) => w.bag === `player:${src}` && w.key === 'roster');
    const bagValue = caller.eval(`Player(${src}).state.roster`) as MemberAnswer | null;
    print(
      `Player(${src}).state.roster -> ${describe(bagValue)} (replicated: ${bag?.replicated ?? 'never set'})`,
    );
    expectThat(lspdRank(bagValue) === newRank.name, 'the state bag did not follow the rank change');

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

    const errors = server.log.lines.filter((line) => /SCRIPT ERROR|ERROR:|warning:/.test(line));
    if (errors.length > 0) {
      print('');
      print(`-- the resource's warnings and errors (${errors.length}) --`);
      for (const line of errors.slice(0, 10)) print(line);
    }
    expectThat(
      !errors.some((line) => line.includes('SCRIPT ERROR')),
      'the resource raised a SCRIPT ERROR (printed above)',
    );
    print('');
    print(`sandbox finished in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    if (options.panel) {
      print(`owner's panel: ${panel.url} (token ${panel.token})`);
      await options.panel(panel);
    }
  } finally {
    lua?.close();
    server.stop();
    await Promise.all([mock.close(), learning.close()]);
    rmSync(folder, { recursive: true, force: true });
  }
}

function lspdRank(member: MemberAnswer | null): string {
  const lspd = member?.departments.find((d) => d.shortName === 'LSPD');
  return lspd?.rank?.name ?? 'none';
}

/** A short, readable rendering of an export's answer. */
function describe(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  const record = value as Partial<MemberAnswer & RankAnswer>;
  if (Array.isArray(record.departments)) {
    const departments = record.departments
      .map((d) => `${d.primary ? '*' : ''}${d.shortName ?? d.name} ${d.rank?.name ?? '(no rank)'}`)
      .join(', ');
    return `${record.name} (${record.id}), ${record.status}; ${departments}`;
  }
  if (typeof record.position === 'number') return `${record.name} (position ${record.position})`;
  return JSON.stringify(value);
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
    await runSandbox(process.argv.includes('--panel') ? { panel: untilInterrupted } : {});
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

// Run when this file (or its bundle, dist/dev/sandbox.mjs) is the entry; not when another dev
// tool bundles it in (their import.meta.url is then the same file).
if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  /sandbox\.[mt]?[jt]s$/.test(process.argv[1])
)
  void main();
