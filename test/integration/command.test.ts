import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness, strangerLicense } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const fast = { rateLimit: { perMinute: 6000 } };

/** Runs a console command and returns the roster lines it printed. */
async function run(harness: Harness, command: string, until: RegExp): Promise<string> {
  const before = harness.server.log.lines.length;
  harness.server.executeCommand(command);
  return eventually(() => {
    const text = harness.server.log.lines.slice(before).join('\n');
    return until.test(text) ? text : undefined;
  }, 8000);
}

describe('roster console command', () => {
  it('status shows the masked key, community, cache, limiter, last error and players', async () => {
    h = await startHarness({ config: fast, keyName: 'full' });
    await eventually(() => h!.logText().includes('connected to the roster'));
    const member = h.mock.data.members[0]!;
    const joined = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error('refused');
    await eventually(() => h!.caller.exports.roster!.getMember!(joined.id) !== null);
    const text = await run(h, 'roster status', /players:/);
    const [prefix, id, secret] = h.mock.keys.full!.split('_');
    expect(text).toContain(`key ${prefix}_${id}_…`);
    expect(text).not.toContain(secret!);
    expect(text).toContain('community "San Andreas Roleplay"');
    expect(text).toMatch(/cache: \d+ entries, hit rate \d+%/);
    expect(text).toMatch(/rate limit: \d+\/120 left this minute/);
    expect(text).toContain('last error: none');
    expect(text).toContain('players: 1/1 online loaded, 0 connecting');
  });

  it('lookup answers for a license and a player id; refresh reports changes', async () => {
    h = await startHarness({ config: fast });
    const member = h.mock.data.members[0]!;
    const joined = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error('refused');
    const byLicense = await run(h, `roster lookup ${member.gameLicense}`, /status/);
    expect(byLicense).toContain(`${member.displayName} (${member.id}), status ACTIVE`);
    expect(byLicense).toMatch(/\* LSPD: \w/);
    expect(await run(h, `roster lookup ${strangerLicense}`, /not on the roster/)).toContain(
      'not on the roster',
    );
    expect(await run(h, `roster lookup ${joined.id}`, /status/)).toContain(
      `player ${joined.id}: ${member.displayName}`,
    );
    expect(await run(h, 'roster lookup 4242', /online/)).toContain('no player 4242 is online');
    expect(await run(h, 'roster lookup nonsense', /expected/)).toContain('expected a server id or license');

    h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    expect(await run(h, 'roster refresh all', /changed/)).toContain('refreshed online players; 1 changed');
    expect(await run(h, `roster refresh ${joined.id}`, /status/)).toContain('status SUSPENDED');
    expect(await run(h, 'roster', /usage/)).toMatch(/usage: roster <status/);
  });

  it('doctor checks the key, scopes, the OpenAPI description, lookups and the rank ladders', async () => {
    h = await startHarness({ config: fast });
    const text = await run(h, 'roster doctor', /Rank ladders[\s\S]*LSPD/);
    expect(text).toContain('✓ key works; community "San Andreas Roleplay"');
    expect(text).toMatch(/✓ scopes: .*roster:read/);
    expect(text).toMatch(/✓ API description confirms 6 of 6 assumptions/);
    expect(text).toMatch(/✓ members can be found by license/);
    expect(text).toMatch(/✓ rank changes: the key has roster:write and departments:write/);
    expect(text).toMatch(/✓ audit feed: the key has audit:read/);
    expect(text).toMatch(
      /LSPD — Los Santos Police Department: Chief \(1\) > Assistant Chief \(2\) > .* > Cadet \(8\)/,
    );
  });

  it('doctor names a missing scope and what to do', async () => {
    h = await startHarness({ config: fast, keyName: 'rosterOnly' });
    const text = await run(h, 'roster doctor', /✗ departments|✓ departments/);
    expect(text).toMatch(/✗ scopes: The roster API key lacks the scope departments:read/);
    expect(text).toMatch(/✗ rank changes: the key has no write scope \(roster:write or departments:write\)/);
    expect(text).toMatch(/! audit feed: the key lacks audit:read/);
    expect(text).toContain('Settings, API Keys');
  });

  it('doctor says the key is refused and stops there', async () => {
    h = await startHarness({ config: fast, keyName: 'revoked' });
    const text = await run(h, 'roster doctor', /Nothing else/);
    expect(text).toMatch(/✗ key: .*(revoked|invalid)/i);
  });

  it('is restricted: a player without the ACE cannot run it', async () => {
    h = await startHarness({ config: fast });
    const member = h.mock.data.members[0]!;
    const joined = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error('refused');
    const before = h.server.log.lines.length;
    h.server.executeCommand('roster status', joined.id);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.server.log.lines.slice(before).join('\n')).not.toContain('rate limit:');
  });
});
