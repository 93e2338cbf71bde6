// `npm start -- --jobs`: job sync end to end with the Qbox stand-in (dev/frameworks/qbx_core, a
// Lua resource): a member joins and loads a character, which gets their LSPD rank as a police
// grade; a promotion on the roster then changes the character's grade, and `roster doctor` shows
// the mapping. Apart from the main sandbox so that run stays as it is.
import { join } from 'node:path';
import { FxServer } from '../emulator';
import { startMockRoster } from '../mock-roster/server';
import type { RosterExports } from './answers';
import { expectThat, waitFor } from './expectation';
import { joiner } from './joins';
import { ensureBundle, repoRoot, resourceFolder } from './resource-folder';

const JOBS = {
  enabled: true,
  departments: {
    LSPD: { job: 'police', grades: { Cadet: 0, Officer: 1, Sergeant: 2, Lieutenant: 3, Chief: 4 } },
    SAFR: { job: 'ambulance' },
  },
};

type QbxPlayer = {
  PlayerData: { job: { name: string; grade: { level: number; name: string }; onduty: boolean } };
};

export async function runJobsSandbox(print: (line: string) => void = console.log): Promise<string[]> {
  const root = repoRoot(import.meta.dirname);
  if (ensureBundle(root)) print('built dist/server.js (it was missing or older than src/)');
  const mock = await startMockRoster({ port: 0, members: 50, seed: 1 });
  const folder = resourceFolder(root, { jobs: JOBS, mirror: { enabled: false } });
  const server = new FxServer({
    convars: { roster_api_key: mock.keys.full, roster_base_url: mock.url },
    convarPermissions: [['roster', 'roster_api_key']],
  });
  try {
    await server.start();
    await server.startLuaResource('qbx_core', join(root, 'dev/frameworks/qbx_core'));
    server.startResource('roster', folder);
    print(`config.json jobs: ${JSON.stringify(JOBS)}`);
    const caller = server.createScriptResource('multichar');
    const roster = caller.exports.roster as unknown as RosterExports &
      Record<string, (...a: unknown[]) => unknown>;
    const qbx = caller.exports.qbx_core!;
    const changes: string[] = [];
    caller.on('roster:jobChanged', (src: unknown, change: unknown) =>
      changes.push(`event roster:jobChanged(${String(src)}, ${JSON.stringify(change)})`),
    );
    await waitFor('the resource to verify its key', () =>
      server.log.of('roster').find((line) => line.includes('connected to the roster')),
    );
    const member = mock.data.addMember({
      displayName: 'Alex Officer',
      departmentId: 'dept_lspd',
      rankId: mock.data.rankByName('LSPD', 'Officer').id,
    });
    print('');
    print('-- a member joins and loads a character --');
    const decision = await joiner(server, print)(`Alex (member ${member.id}, LSPD Officer)`, 'Alex', [
      member.gameLicense,
      'ip:127.0.0.9',
    ]);
    expectThat(decision.admitted, 'the member was refused');
    const src = decision.id;
    await waitFor('the roster data', () => roster.getMember(src) !== null);
    qbx.Login!(src, 'ALEX0001');
    print(`exports.qbx_core:Login(${src}, 'ALEX0001')`);
    const job = () => (qbx.GetPlayer!(src) as QbxPlayer).PlayerData.job;
    await waitFor('the police job', () => job().name === 'police', 3000);
    print(`PlayerData.job -> ${job().name}, grade ${job().grade.level} (${job().grade.name})`);
    for (const line of changes.splice(0)) print(line);

    print('');
    print('-- a promotion on the roster: Officer -> Lieutenant --');
    mock.data.setMemberRank(member.id, mock.data.rankByName('LSPD', 'Lieutenant').id);
    const asked = performance.now();
    await roster.refreshPlayer(src);
    await waitFor('grade 3', () => job().grade.level === 3, 3000);
    print(
      `PlayerData.job -> ${job().name}, grade ${job().grade.level} (${job().grade.name}), ${Math.round(performance.now() - asked)} ms after the refresh was asked`,
    );
    await waitFor('roster:jobChanged', () => changes.length > 0, 3000);
    for (const line of changes.splice(0)) print(line);
    print(`exports.roster.getJob(${src}) -> ${JSON.stringify(roster.getJob!(src))}`);

    print('');
    print('-- console: roster doctor (job sync) --');
    const before = server.log.lines.length;
    server.executeCommand('roster doctor');
    const doctor = await waitFor(
      'the doctor output',
      () => {
        const lines = server.log.lines.slice(before).filter((l) => /jobs:|^\[roster\] {3}[✓✗]/.test(l));
        return lines.length >= 3 ? lines : false;
      },
      10_000,
    );
    for (const line of doctor) print(line);
    return server.log.lines;
  } finally {
    server.stop();
    await mock.close();
  }
}
