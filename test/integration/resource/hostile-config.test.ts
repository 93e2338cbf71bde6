import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ready = (harness: Harness) => eventually(() => harness.logText().includes('connected to the roster'));

/** A loopback address where nothing listens: a port taken and given back. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** The resource's first line that says it could not verify the key. */
const unverified = (harness: Harness) =>
  eventually(() => harness.server.log.of('roster').find((l) => l.includes('could not verify the key')), 8000);

describe('service addresses', () => {
  for (const address of ['http://127.attacker.example:8080', 'http://127.0.0.1.nip.io:8080']) {
    it(`refuses plain http to ${address}, a name that only looks local`, async () => {
      h = await startHarness({ baseUrl: address });
      expect(h.logText()).toMatch(/roster_base_url must use https:\/\//);
      expect(h.mock.counters.total).toBe(0);
    });
  }

  it('accepts plain http to a literal loopback address', async () => {
    h = await startHarness();
    await ready(h);
    expect(h.logText()).not.toMatch(/must use https/);
  });

  it('refuses a non-loopback training.baseUrl over plain http', async () => {
    h = await startHarness({
      config: { training: { enabled: true, baseUrl: 'http://127.attacker.example/' } },
    });
    h.server.executeCommand('set roster_training_api_key lp_abc_0123456789abcdef');
    h.server.restartResource('roster');
    await eventually(() => /training\.baseUrl must use https/.test(h!.logText()));
  });

  it('never prints the credentials of an address with userinfo', async () => {
    h = await startHarness({ baseUrl: 'http://owner:hunter2hunter2@roster.example.com' });
    const text = h.logText();
    expect(text).toMatch(/roster_base_url must be a plain address without credentials/);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('owner:');
  });

  it('never prints credentials an owner typed without a scheme or with a slash in the password', async () => {
    for (const address of [
      'owner:hunter2hunter2@roster.example.com',
      '//owner:hunter2hunter2@roster.example.com',
      'https://owner:pa/hunter2hunter2@roster.example.com',
      'https://roster.example.com/?token=hunter2hunter2 x',
    ]) {
      h = await startHarness({ baseUrl: address });
      const text = h.logText();
      expect(text).toMatch(/roster_base_url/);
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('owner:');
      await h.close();
      h = undefined;
    }
  });

  it('an unreachable address from roster_base_url names roster_base_url, in one sentence each', async () => {
    const address = await closedAddress();
    h = await startHarness({ baseUrl: address, config: { api: { timeoutMs: 500 } } });
    const line = await unverified(h);
    expect(line).toContain(`Could not reach the roster service at ${address}`);
    expect(line).toMatch(/Check the server's internet access and roster_base_url\. Retrying in 30s\.$/);
    expect(line).not.toContain('api.baseUrl');
    expect(line).not.toContain('..');
  });

  it('an unreachable address from config.json names api.baseUrl', async () => {
    const address = await closedAddress();
    h = await startHarness({ baseUrl: '', config: { api: { baseUrl: address, timeoutMs: 500 } } });
    const line = await unverified(h);
    expect(line).toMatch(/Check the server's internet access and api\.baseUrl\. Retrying in 30s\.$/);
    expect(line).not.toContain('roster_base_url');
  });

  it('refuses an address ending in /api/v1 and says what to write instead, sending nothing', async () => {
    h = await startHarness({ startResource: false });
    h.server.executeCommand(`set roster_base_url "${h.mock.url}/api/v1"`);
    h.server.startResource('roster', h.folder);
    expect(h.server.log.of('roster')).toContain(
      `ERROR: roster_base_url ends in /api/v1, which the resource adds to every request itself: write "${h.mock.url}" instead.`,
    );
    expect(h.mock.counters.total).toBe(0);
  });

  it("recognises the README's placeholder left in place, in the convar or in config.json", async () => {
    h = await startHarness({ baseUrl: 'https://roster.example.com' });
    expect(h.server.log.of('roster')).toContain(
      `ERROR: roster_base_url is still the placeholder "https://roster.example.com" (example.com addresses are for documentation only): replace it with your roster service's address.`,
    );
    await h.close();
    h = await startHarness({ baseUrl: '', config: { api: { baseUrl: 'https://roster.example.com' } } });
    expect(h.logText()).toMatch(/api\.baseUrl is still the placeholder "https:\/\/roster\.example\.com"/);
    expect(h.mock.counters.total).toBe(0);
  });

  it('never prints the credentials of an unreadable address either', async () => {
    h = await startHarness({ baseUrl: 'ftp://owner:hunter2hunter2@exa mple.com' });
    const text = h.logText();
    expect(text).toMatch(/roster_base_url is .*which is not an address/);
    expect(text).not.toContain('hunter2');
  });
});

describe('surprising config', () => {
  it('accepts a config.json saved with a UTF-8 byte-order mark', async () => {
    h = await startHarness({
      startResource: false,
    });
    writeFileSync(join(h.folder, 'config.json'), `\uFEFF${JSON.stringify({ gate: { timeoutSeconds: 12 } })}`);
    h.server.startResource('roster', h.folder);
    await ready(h);
    expect(h.logText()).not.toMatch(/not valid JSON/);
  });

  it('warns that an empty gate.requireStatus refuses every member', async () => {
    h = await startHarness({ config: { gate: { requireStatus: [] } } });
    await ready(h);
    expect(h.logText()).toMatch(/gate\.requireStatus is empty.*every member is refused/);
    const before = h.server.log.lines.length;
    h.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = h!.server.log.lines.slice(before).join('\n');
      return /Rank ladders|✗ departments/.test(text) && text;
    }, 8000);
    expect(doctor).toMatch(/! config: gate\.requireStatus is empty.*every member is refused/);
  });

  it('names the real floor, once, for a rate limit of -1e300 and a refresh interval of -1e300', async () => {
    h = await startHarness({
      config: { rateLimit: { perMinute: -1e300 }, refresh: { intervalSeconds: -1e300 } },
    });
    const lines = h.server.log.of('roster');
    expect(lines.filter((l) => l.includes('rateLimit.perMinute'))).toEqual([
      'ERROR: config.json: rateLimit.perMinute must be at least 1; it is -1e+300.',
    ]);
    expect(lines.filter((l) => l.includes('refresh.intervalSeconds'))).toEqual([
      'ERROR: config.json: refresh.intervalSeconds must be at least 0; it is -1e+300.',
    ]);
  });

  it('shows the value of a wrong type, and never a key pasted into config.json', async () => {
    h = await startHarness({ startResource: false });
    const key = String(h.mock.keys.full);
    writeFileSync(
      join(h.folder, 'config.json'),
      JSON.stringify({ gate: { enabled: 'yes', requireStatus: 'ACTIVE' }, api: { timeoutMs: key } }),
    );
    h.server.startResource('roster', h.folder);
    const lines = h.server.log.of('roster');
    expect(lines).toEqual(
      expect.arrayContaining([
        'ERROR: config.json: gate.enabled must be a boolean; it is "yes".',
        'ERROR: config.json: gate.requireStatus must be a list (e.g. ["ACTIVE"]); it is "ACTIVE".',
        'ERROR: config.json: api.timeoutMs must be a number; it is a value shaped like an API key (not shown).',
      ]),
    );
    expect(h.logText()).not.toContain(key.split('_')[2]!);
  });

  it('names one ceiling, once, for a rate limit of 1e300', async () => {
    h = await startHarness({ config: { rateLimit: { perMinute: 1e300 } } });
    const lines = h.server.log.of('roster').filter((l) => l.includes('rateLimit.perMinute'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/rateLimit\.perMinute must be at most 100000/);
  });
});

describe('player names in the console', () => {
  it('a name with a newline cannot forge a console line', async () => {
    h = await startHarness();
    await ready(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const forged = 'Mallory\n[roster] Admin admitted (roster)\r\u001b[2J';
    const d = await h.server.connectPlayer({ name: forged, identifiers: [member.gameLicense] }).decision;
    expect(d.admitted).toBe(true);
    const lines = h.server.log.of('roster');
    expect(lines.some((l) => l.includes('Mallory?[roster] Admin admitted (roster)??'))).toBe(true);
    expect(lines.some((l) => /^(\[roster\] )?Admin admitted/.test(l))).toBe(false);
    for (const line of lines) expect(line).not.toMatch(/\p{Cc}/u);
  });
});

describe('an unreadable member record', () => {
  const scaled = (onError: string) => ({
    gate: { onError, timeoutSeconds: 2 },
    api: { timeoutMs: 500 },
    cache: { ttlSeconds: 1 },
  });

  for (const how of ['missing', 'null', 'empty', 'renamed', 'bare'] as const) {
    it(`gameLicense ${how}: allow admits, never "not on the roster"`, async () => {
      h = await startHarness({ config: scaled('allow') });
      await ready(h);
      h.mock.faults.unreadableMembers(how);
      const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
      const d = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
      expect(d.admitted).toBe(true);
      expect(h.logText()).not.toMatch(/A refused \(not on the roster\)/);
    });
  }

  it('cached: the last known record survives it, and a later outage still admits the member', async () => {
    h = await startHarness({ config: scaled('cached') });
    await ready(h);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const first = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!first.admitted) throw new Error(first.reason);
    h.server.dropPlayer(first.id);
    await new Promise((r) => setTimeout(r, 1100));
    h.mock.faults.unreadableMembers('missing');
    const during = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(during).toMatchObject({ admitted: true });
    if (during.admitted) h.server.dropPlayer(during.id);
    h.mock.faults.clear();
    h.mock.faults.internal();
    await new Promise((r) => setTimeout(r, 1100));
    const later = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    expect(later).toMatchObject({ admitted: true });
    expect(await h.caller.exports.roster!.lookupLicense!(member.gameLicense)).toMatchObject({
      id: member.id,
    });
  });

  it('an online player keeps their record through refreshes that read it unreadable', async () => {
    h = await startHarness({ config: scaled('cached') });
    await ready(h);
    const updated: unknown[] = [];
    h.caller.on('roster:playerUpdated', (_src: unknown, member: unknown) => updated.push(member));
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const joined = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!joined.admitted) throw new Error(joined.reason);
    await eventually(() => h!.caller.exports.roster!.getMember!(joined.id) !== null);
    h.mock.faults.unreadableMembers('renamed');
    const before = h.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0;
    h.server.executeCommand('roster refresh all');
    await eventually(() => (h!.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0) > before);
    expect(await h.caller.exports.roster!.refreshPlayer!(joined.id)).toMatchObject({ id: member.id });
    expect(h.caller.exports.roster!.getMember!(joined.id)).toMatchObject({ id: member.id });
    expect(h.caller.exports.roster!.isOnRoster!(joined.id)).toBe(true);
    expect(updated).toEqual([]);
  });

  it('cached: a player never seen before is refused as unavailable, not as "not on the roster"', async () => {
    h = await startHarness({ config: scaled('cached') });
    await ready(h);
    h.mock.faults.unreadableMembers('empty');
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const d = await h.server.connectPlayer({ name: 'N', identifiers: [member.gameLicense] }).decision;
    expect(!d.admitted && d.reason).toMatch(/unavailable right now/);
  });
});
