/**
 * The README's install block, applied as an owner applies it: the one ```cfg block, parsed from
 * README.md itself, becomes the server.cfg of an emulated server whose resources/ folder holds the
 * repository as `[roster]/roster`; only the key and the address are filled in (with a key holding
 * every scope the README's scopes table lists). The resource must start with no warning, `roster
 * doctor` must show no ✗, a member must be admitted holding their principals, and an admin (given
 * group.admin the way txAdmin gives it) must be able to run `roster status` from the game.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';
import { manifestServerScripts } from '../../../dev/emulator/manifest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { eventually, expectNoUnhandledRejections } from '../harness';

const repo = resolve(import.meta.dirname, '../../..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/** The README's fenced blocks of one language. */
function fencedBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1]!);
}

/** Every `scope:access` the README's scopes table names (the table under the heading with "scopes"). */
function listedScopes(text: string): string[] {
  const heading = /^#+ .*scopes.*$/im.exec(text);
  if (!heading) return [];
  const after = text.slice(heading.index);
  const table = /(^\|.*\|\n)+/m.exec(after)?.[0] ?? '';
  return [...new Set([...table.matchAll(/`([a-z]+:(?:read|write))`/g)].map((m) => m[1]!))];
}

/**
 * The folder FXServer would start for `ensure <name>`: a folder of that name with an fxmanifest.lua
 * anywhere under resources/, inside `[category]` folders too.
 */
function findResource(resources: string, name: string): string | null {
  for (const entry of readdirSync(resources, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(resources, entry.name);
    if (entry.name === name && existsSync(join(path, 'fxmanifest.lua'))) return path;
    if (entry.name.startsWith('[') && entry.name.endsWith(']')) {
      const inside = findResource(path, name);
      if (inside) return inside;
    }
  }
  return null;
}

/** The repository as an owner clones it, with what the manifest loads (no config.json: defaults). */
function cloneInto(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const file of ['fxmanifest.lua', ...manifestServerScripts(repo)]) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    copyFileSync(join(repo, file), join(folder, file));
  }
}

const blocks = fencedBlocks(readme, 'cfg');
const block = blocks[0] ?? '';
const scopes = listedScopes(readme);

describe("the README's server.cfg block", () => {
  it('is one block, naming the key, the address and `ensure roster`', () => {
    expect(blocks).toHaveLength(1);
    expect(block).toMatch(/^set roster_api_key "[^"]+"/m);
    expect(block).toMatch(/^set roster_base_url "[^"]+"/m);
    expect(block).toMatch(/^ensure roster\s*$/m);
  });

  it('lists a scope for every capability of the key', () => {
    for (const scope of ['roster:read', 'departments:read', 'audit:read', 'timelogs:read']) {
      expect(scopes).toContain(scope);
    }
    expect(scopes.some((s) => s.endsWith(':write'))).toBe(true);
  });
});

describe('applied as written, with a key holding the listed scopes', () => {
  let mock: MockRoster;
  let server: FxServer;
  let root: string;
  // Three ACTIVE members: the admin, a member, and another member who is no admin.
  let active: MockRoster['data']['members'];

  beforeAll(async () => {
    mock = await startMockRoster({ port: 0, members: 200, seed: 7, keys: [{ name: 'listed', scopes }] });
    root = mkdtempSync(join(tmpdir(), 'roster-server-'));
    cloneInto(join(root, 'resources', '[roster]', 'roster'));
    // Only the two values an owner fills in change; every other line runs as written.
    const lines = block
      .replace(/^(set roster_api_key )"[^"]*"/m, `$1"${mock.keys.listed}"`)
      .replace(/^(set roster_base_url )"[^"]*"/m, `$1"${mock.url}"`)
      .split('\n');
    const ensured = lines.flatMap((line) => /^ensure (\S+)/.exec(line.trim())?.[1] ?? []);
    active = mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 3);
    const adminLicense = active[0]!.gameLicense;
    server = new FxServer({
      // txAdmin's own line for the server's admins, which the block's ACEs for group.admin build on.
      serverCfg: [
        `add_principal identifier.${adminLicense} group.admin`,
        ...lines.filter((line) => !/^\s*ensure /.test(line)),
      ].join('\n'),
      order: 'registration',
    });
    await server.start();
    for (const name of ensured) {
      const folder = findResource(join(root, 'resources'), name);
      if (!folder) throw new Error(`ensure ${name}: no folder named ${name} under resources/`);
      server.startResource(name, folder);
    }
    await eventually(() => server.log.of('roster').some((l) => l.includes('connected to the roster')), 8000);
  });

  afterAll(async () => {
    server?.stop();
    await mock?.close();
    rmSync(root, { recursive: true, force: true });
    if (server) expectNoUnhandledRejections(server);
  });

  /** Runs `command` (as `player`, or the console) and returns what the server printed for it. */
  async function run(command: string, until: RegExp, player?: number): Promise<string> {
    const before = server.log.lines.length;
    server.executeCommand(command, player);
    await eventually(() => until.test(server.log.lines.slice(before).join('\n')), 8000);
    // A command's answer is printed line after line in one go: one more frame and it is whole.
    await server.nextTick();
    return server.log.lines.slice(before).join('\n');
  }

  it('starts with no warning and no error', () => {
    const printed = server.log.lines.join('\n');
    expect(printed).not.toMatch(
      /warning:|ERROR:|SCRIPT ERROR|Access denied|Argument count mismatch|No such command/,
    );
  });

  it('`roster doctor` shows no ✗', async () => {
    const text = await run('roster doctor', /key works|✗ key/);
    expect(text).toContain('✓ key works');
    expect(text).toContain('✓ permissions: principals granted');
    expect(text).toMatch(/✓ rank changes/);
    expect(text).not.toContain('✗');
  });

  it('admits a member holding their principals', async () => {
    const member = active[1]!;
    const decision = await server.connectPlayer({ name: 'Member', identifiers: [member.gameLicense] })
      .decision;
    expect(decision.admitted).toBe(true);
    const links = await eventually(() => {
      const held = server.aces
        .listPrincipals()
        .filter((l) => l.startsWith(`identifier.${member.gameLicense} <- `));
      return held.some((l) => l.endsWith('<- roster.member')) ? held : undefined;
    });
    const primary = mock.data.assignmentsOf(member.id).find((a) => a.isPrimary)!;
    const department = mock.data.data.departments.find((d) => d.id === primary.departmentId)!;
    expect(links).toContain(
      `identifier.${member.gameLicense} <- roster.${department.shortName!.toLowerCase()}`,
    );
  });

  it('lets an admin run `roster status` from the game, and no one else', async () => {
    const decision = await server.connectPlayer({ name: 'Admin', identifiers: [active[0]!.gameLicense] })
      .decision;
    if (!decision.admitted) throw new Error(`the admin was refused: ${decision.reason}`);
    const text = await run('roster status', /players:|Access denied/, decision.id);
    expect(text).not.toContain('Access denied');
    expect(text).toContain('community "San Andreas Roleplay"');

    const joined = await server.connectPlayer({ name: 'Other', identifiers: [active[2]!.gameLicense] })
      .decision;
    if (!joined.admitted) throw new Error('the member was refused');
    expect(await run('roster status', /Access denied|players:/, joined.id)).toContain(
      'Access denied for command roster.',
    );
  });
});
