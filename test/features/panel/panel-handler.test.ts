import { beforeEach, describe, expect, it } from 'vitest';
import { createPanel, type Panel } from '../../../src/features/panel/panel';
import { silentLogger } from '../../../src/platform/ports';
import { FakeClock } from '../../http/limiter/fake-clock';
import { API_KEY, fakeSources, TOKEN } from './fake-sources';
import { call, header } from './fx-http-fake';

const texts = { notOnRoster: 'not on roster', notInDepartment: 'no dept', unavailable: 'unavailable' };

describe('the panel handler (FXServer request/response shapes)', () => {
  let clock: FakeClock;
  let panel: Panel;
  let sources: ReturnType<typeof fakeSources>;
  const bearer = { Authorization: `Bearer ${TOKEN}` };

  beforeEach(() => {
    clock = new FakeClock();
    sources = fakeSources();
    panel = createPanel({
      token: TOKEN,
      sources,
      refusalTexts: () => texts,
      clock,
      logger: silentLogger,
      basePath: '/roster/',
      secrets: [API_KEY],
      assets: { js: 'console.log(1)', css: 'body{}' },
    });
  });

  it('refuses every path without a token (401), with the login form for the page', async () => {
    for (const path of ['/', '/status.json', '/metrics', '/app.js', '/app.css']) {
      const reply = await call(panel.handler, { path });
      expect(reply.status, path).toBe(401);
    }
    const page = await call(panel.handler, { path: '/' });
    expect(page.body).toContain('<form method="post" action="login">');
    expect(header(page, 'content-type')).toContain('text/html');
  });

  it('answers every path with the right Bearer token', async () => {
    const page = await call(panel.handler, { path: '/', headers: bearer });
    expect(page.status).toBe(200);
    expect(page.body).toContain('src="app.js"');
    expect(page.body).not.toMatch(/(src|href)="(\/|https?:)/);
    expect((await call(panel.handler, { path: '/app.js', headers: bearer })).body).toBe('console.log(1)');
    expect((await call(panel.handler, { path: '/app.css', headers: bearer })).body).toBe('body{}');
    const status = await call(panel.handler, { path: '/status.json?x=1', headers: bearer });
    expect(status.status).toBe(200);
    const data = JSON.parse(status.body);
    expect(data.health).toMatchObject({ keyVerified: true, community: 'Test Community' });
    expect(data.players.online[0]).toMatchObject({
      name: 'Alice',
      license: 'license:0123…4567',
      departments: [{ name: 'LSPD', rank: 'Sergeant', callsign: '1-A-12', primary: true }],
    });
    const metrics = await call(panel.handler, { path: '/metrics', headers: bearer });
    expect(metrics.status).toBe(200);
    expect(header(metrics, 'content-type')).toContain('text/plain');
    expect(metrics.body).toContain('roster_cache_entries 42');
    expect(metrics.body).toContain('roster_mirror_members 1234');
    expect(metrics.body).toContain('roster_mirror_deciding 1');
    expect(metrics.body).toContain('roster_mirror_requests_today 31');
  });

  it('says 0 for the mirror while none is kept', async () => {
    sources.mirror = () => null;
    const metrics = await call(panel.handler, { path: '/metrics', headers: bearer });
    expect(metrics.body).toMatch(/^roster_mirror_members 0$/m);
    expect(metrics.body).toMatch(/^roster_mirror_deciding 0$/m);
  });

  it("status.json gives each online player's hours on duty for the last 7 days (null when unknown)", async () => {
    const panel = createPanel({
      token: TOKEN,
      sources: fakeSources({ dutyHours: (src) => (src === '1' ? 12.5 : null) }),
      refusalTexts: () => texts,
      clock,
      logger: silentLogger,
      basePath: '/roster/',
      secrets: [API_KEY],
      assets: { js: '', css: '' },
    });
    const data = JSON.parse((await call(panel.handler, { path: '/status.json', headers: bearer })).body);
    expect(data.players.online.map((p: { id: string; hours7: number | null }) => [p.id, p.hours7])).toEqual([
      ['1', 12.5],
      ['2', null],
    ]);
  });

  it("status.json shows each online player's job and grade from job sync", async () => {
    const withJobs = createPanel({
      token: TOKEN,
      sources: fakeSources({ jobOf: (src) => (src === '1' ? { job: 'police', grade: 2 } : null) }),
      refusalTexts: () => texts,
      clock,
      logger: silentLogger,
      basePath: '/roster/',
      secrets: [API_KEY],
      assets: { js: '', css: '' },
    });
    const data = JSON.parse((await call(withJobs.handler, { path: '/status.json', headers: bearer })).body);
    expect(data.players.online.map((p: { job: unknown }) => p.job)).toEqual([
      { job: 'police', grade: 2 },
      null,
    ]);
  });

  it("status.json has the roster mirror's row: members held, last full read, last audit catch-up, requests today, gaps", async () => {
    const data = JSON.parse((await call(panel.handler, { path: '/status.json', headers: bearer })).body);
    expect(data.mirror).toEqual({
      state: 'up',
      summary: "members' joins are decided without a request",
      held: 1234,
      lastFullReadAt: 500,
      lastAuditCatchUpAt: 900,
      caughtUpFromSnapshot: { at: 700, reads: 1 },
      requestsToday: 31,
      lastReadFailure: null,
      deciding: true,
      gaps: 1,
      lastGap: { at: 600, reason: 'more than 2000 entries stamped 2025-06-02T12:00:00.000Z', rereadAt: 650 },
      clockSkew: { entries: 2, last: { entry: 'aud_fast_2', aheadMs: 3_540_000, at: 800 } },
    });
  });

  it('says joins are looked up while a gap in the audit log is open', async () => {
    const base = sources.mirror()!;
    sources.mirror = () => ({
      ...base,
      deciding: false,
      lastGap: { at: 600, reason: 'an entry too deep to read', rereadAt: null },
    });
    const data = JSON.parse((await call(panel.handler, { path: '/status.json', headers: bearer })).body);
    expect(data.mirror).toMatchObject({
      state: 'up',
      deciding: false,
      summary:
        'a gap in the audit log (an entry too deep to read): joins are looked up until the full read begun after it completes',
    });
  });

  it('says a stale snapshot serves the outage policy only, and has no mirror row when none is kept', async () => {
    const stale = { kind: 'stale' as const, why: 'its last full read is older than mirror.resyncMinutes' };
    const base = sources.mirror()!;
    sources.mirror = () => ({ ...base, state: stale, caughtUp: null, failure: 'the service answered 503' });
    const data = JSON.parse((await call(panel.handler, { path: '/status.json', headers: bearer })).body);
    expect(data.mirror).toMatchObject({
      state: 'stale',
      summary:
        'stale snapshot: outage policy only (its last full read is older than mirror.resyncMinutes), until a full read completes',
      caughtUpFromSnapshot: null,
      lastReadFailure: 'the service answered 503',
    });
    sources.mirror = () => null;
    const none = JSON.parse((await call(panel.handler, { path: '/status.json', headers: bearer })).body);
    expect(none.mirror).toBeNull();
  });

  it('status.json lists the licenses claimed by several members, each license in part', async () => {
    const full = `license:${'0123456789abcdef'.repeat(2)}01234567`;
    sources.claimedLicenses = () => ({
      licenses: [{ license: full, memberIds: ['mem_new', 'mem_old'], members: 3, deciding: 'mem_new' }],
      more: true,
    });
    const body = (await call(panel.handler, { path: '/status.json', headers: bearer })).body;
    expect(JSON.parse(body).claimedLicenses).toEqual({
      licenses: [
        { license: 'license:0123…4567', memberIds: ['mem_new', 'mem_old'], members: 3, deciding: 'mem_new' },
      ],
      more: true,
    });
    expect(body).not.toContain(full);
    delete sources.claimedLicenses;
    const none = JSON.parse((await call(panel.handler, { path: '/status.json', headers: bearer })).body);
    expect(none.claimedLicenses).toEqual({ licenses: [], more: false });
  });

  it('gives 401 to a wrong token and 429 for ten minutes after five from one address', async () => {
    const wrong = { Authorization: 'Bearer not-the-token-at-all' };
    for (let i = 0; i < 4; i++) {
      const reply = await call(panel.handler, {
        path: '/status.json',
        headers: wrong,
        address: `10.1.1.1:${4000 + i}`,
      });
      expect(reply.status).toBe(401);
    }
    const fifth = await call(panel.handler, {
      path: '/status.json',
      headers: wrong,
      address: '10.1.1.1:5000',
    });
    expect(fifth.status).toBe(429);
    const again = await call(panel.handler, { path: '/status.json', headers: wrong, address: '10.1.1.1:6' });
    expect(again.status).toBe(429);
    expect(Number(header(again, 'retry-after'))).toBe(600);
    expect(
      (await call(panel.handler, { path: '/status.json', headers: wrong, address: '10.1.1.2:1' })).status,
    ).toBe(401);
    await clock.advance(10 * 60_000);
    expect(
      (await call(panel.handler, { path: '/status.json', headers: wrong, address: '10.1.1.1:7' })).status,
    ).toBe(401);
  });

  it('serves the right token and a valid session from a locked address: credentials come first', async () => {
    const login = await call(panel.handler, { method: 'POST', path: '/login', body: `token=${TOKEN}` });
    const session = { Cookie: header(login, 'set-cookie')!.split(';')[0]! };
    const wrong = { Authorization: 'Bearer not-the-token-at-all' };
    for (let i = 0; i < 5; i++) await call(panel.handler, { path: '/metrics', headers: wrong });
    expect((await call(panel.handler, { path: '/metrics', headers: wrong })).status).toBe(429);
    expect((await call(panel.handler, { path: '/metrics', headers: bearer })).status).toBe(200);
    expect((await call(panel.handler, { path: '/status.json', headers: session })).status).toBe(200);
    const relogin = await call(panel.handler, { method: 'POST', path: '/login', body: `token=${TOKEN}` });
    expect(relogin.status).toBe(303);
    // Served requests count for nothing: the address is still locked for wrong tokens, no longer.
    expect(
      Number(header(await call(panel.handler, { path: '/metrics', headers: wrong }), 'retry-after')),
    ).toBe(600);
  });

  it('keys an IPv6 client by its /64 on the Bearer and the login path alike', async () => {
    const wrong = { Authorization: 'Bearer not-the-token-at-all' };
    for (let i = 0; i < 5; i++) {
      await call(panel.handler, {
        path: '/status.json',
        headers: wrong,
        address: `[2001:db8::1:0:0:5]:${i}`,
      });
    }
    const form = (address: string) =>
      call(panel.handler, { method: 'POST', path: '/login', body: 'token=guess', address });
    expect((await form('[2001:db8::1:0:0:5]:9')).status).toBe(429);
    expect((await form('[2001:db8::7]:9')).status).toBe(429);
    expect((await form('[2001:db8:0:1::5]:9')).status).toBe(401);
  });

  it('trades the token for an HttpOnly SameSite=Strict cookie through the login form', async () => {
    const login = await call(panel.handler, {
      method: 'POST',
      path: '/login',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    expect(login.status).toBe(303);
    expect(header(login, 'location')).toBe('./');
    const setCookie = header(login, 'set-cookie')!;
    expect(setCookie).toMatch(/^roster_session=[A-Za-z0-9_-]{43}; Path=\/roster\/;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(';')[0]!;
    expect(
      (await call(panel.handler, { path: '/status.json', headers: { Cookie: `a=b; ${cookie}` } })).status,
    ).toBe(200);
    // Logging out ends the session.
    await call(panel.handler, { method: 'POST', path: '/logout', headers: { Cookie: cookie } });
    expect((await call(panel.handler, { path: '/status.json', headers: { Cookie: cookie } })).status).toBe(
      401,
    );
  });

  it('counts wrong tokens from the login form towards the lock-out, but not stale cookies', async () => {
    for (let i = 0; i < 10; i++) {
      const reply = await call(panel.handler, {
        path: '/status.json',
        headers: { Cookie: 'roster_session=old' },
      });
      expect(reply.status).toBe(401);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await call(panel.handler, { method: 'POST', path: '/login', body: 'token=guess' });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('changes nothing on GET: doctor, login and logout need POST', async () => {
    for (const path of ['/doctor', '/login', '/logout']) {
      const reply = await call(panel.handler, { path, headers: bearer });
      expect(reply.status, path).toBe(405);
      expect(header(reply, 'allow')).toBe('POST');
    }
    expect(sources.doctorRuns).toBe(0);
    const run = await call(panel.handler, { method: 'POST', path: '/doctor', headers: bearer });
    expect(run.status).toBe(200);
    expect(JSON.parse(run.body).lines[0]).toBe('✓ key works');
    expect(sources.doctorRuns).toBe(1);
  });

  it('refuses a cross-site POST', async () => {
    const reply = await call(panel.handler, {
      method: 'POST',
      path: '/doctor',
      headers: { ...bearer, Origin: 'https://evil.example', Host: '127.0.0.1:30120' },
    });
    expect(reply.status).toBe(403);
    expect(sources.doctorRuns).toBe(0);
  });

  it('never sends the key or the token, even when a source carries them', async () => {
    const run = await call(panel.handler, { method: 'POST', path: '/doctor', headers: bearer });
    const status = await call(panel.handler, { path: '/status.json', headers: bearer });
    for (const reply of [run, status]) {
      expect(reply.body).not.toContain(API_KEY);
      expect(reply.body).not.toContain(TOKEN);
    }
    expect(run.body).toContain('[redacted]');
  });

  it('refuses a body larger than a token needs', async () => {
    const reply = await call(panel.handler, {
      method: 'POST',
      path: '/login',
      body: `token=${'x'.repeat(5000)}`,
    });
    expect(reply.status).toBe(413);
  });

  it('sends no-store, nosniff and a CSP that allows nothing but the resource', async () => {
    const reply = await call(panel.handler, { path: '/', headers: bearer });
    expect(header(reply, 'cache-control')).toBe('no-store');
    expect(header(reply, 'content-security-policy')).toContain("default-src 'none'");
    expect(header(reply, 'content-security-policy')).toContain("connect-src 'self'");
  });
});

describe('behind a reverse proxy (panel.trustedProxies)', () => {
  const PROXY = '127.0.0.1:41000';
  let clock: FakeClock;
  let panel: Panel;
  beforeEach(() => {
    clock = new FakeClock();
    panel = createPanel({
      token: TOKEN,
      sources: fakeSources(),
      refusalTexts: () => texts,
      clock,
      logger: silentLogger,
      basePath: '/roster/',
      secrets: [API_KEY],
      assets: { js: '', css: '' },
      trustedProxies: ['127.0.0.1'],
    });
  });
  const via = (client: string, headers: Record<string, string> = {}) => ({
    'X-Forwarded-For': client,
    Host: '127.0.0.1:30120',
    'X-Forwarded-Host': 'panel.example.com',
    'X-Forwarded-Proto': 'https',
    ...headers,
  });
  const wrong = { Authorization: 'Bearer not-the-token-at-all' };

  it('locks out the client that sent wrong tokens, not everyone behind the proxy', async () => {
    const attacker = [];
    for (let i = 0; i < 6; i++) {
      const reply = await call(panel.handler, {
        path: '/status.json',
        headers: via('203.0.113.66', wrong),
        address: PROXY,
      });
      attacker.push(reply.status);
    }
    expect(attacker).toEqual([401, 401, 401, 401, 429, 429]);
    // The owner's own wrong guess through the same proxy is still a plain 401, and the right token 200.
    const owner = await call(panel.handler, {
      path: '/status.json',
      headers: via('198.51.100.7', wrong),
      address: PROXY,
    });
    expect(owner.status).toBe(401);
    const right = await call(panel.handler, {
      path: '/metrics',
      headers: via('198.51.100.7', { Authorization: `Bearer ${TOKEN}` }),
      address: PROXY,
    });
    expect(right.status).toBe(200);
    // The attacker cannot pick another address by writing one: the proxy appends what it saw.
    const spoofed = await call(panel.handler, {
      path: '/status.json',
      headers: via('1.2.3.4, 203.0.113.66', wrong),
      address: PROXY,
    });
    expect(spoofed.status).toBe(429);
  });

  it('signs in through a proxy that rewrites Host, with a Secure cookie when the browser used TLS', async () => {
    const login = await call(panel.handler, {
      method: 'POST',
      path: '/login',
      headers: via('198.51.100.7', { Origin: 'https://panel.example.com', 'Sec-Fetch-Site': 'same-origin' }),
      address: PROXY,
      body: `token=${TOKEN}`,
    });
    expect(login.status).toBe(303);
    expect(header(login, 'set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    const evil = await call(panel.handler, {
      method: 'POST',
      path: '/login',
      headers: via('198.51.100.7', { Origin: 'https://evil.example' }),
      address: PROXY,
      body: `token=${TOKEN}`,
    });
    expect(evil.status).toBe(403);
  });

  it('believes none of those headers from an address that is not a trusted proxy', async () => {
    const direct = '203.0.113.9:5000';
    const login = await call(panel.handler, {
      method: 'POST',
      path: '/login',
      headers: via('198.51.100.7', { Origin: 'https://panel.example.com' }),
      address: direct,
      body: `token=${TOKEN}`,
    });
    // Its X-Forwarded-Host is not believed, so the Origin names another host than Host.
    expect(login.status).toBe(403);
    const plain = await call(panel.handler, {
      method: 'POST',
      path: '/login',
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '1.1.1.1' },
      address: direct,
      body: `token=${TOKEN}`,
    });
    expect(header(plain, 'set-cookie')).not.toContain('Secure');
    for (let i = 0; i < 5; i++) {
      await call(panel.handler, {
        path: '/metrics',
        headers: { ...wrong, 'X-Forwarded-For': `10.0.0.${i}` },
        address: direct,
      });
    }
    expect(
      (await call(panel.handler, { path: '/metrics', headers: wrong, address: '203.0.113.9:1' })).status,
    ).toBe(429);
  });
});

describe('cross-site posts', () => {
  it('are told apart by Sec-Fetch-Site; Origin: null alone is no proof', async () => {
    const clock = new FakeClock();
    const panel = createPanel({
      token: TOKEN,
      sources: fakeSources(),
      refusalTexts: () => texts,
      clock,
      logger: silentLogger,
      basePath: '/roster/',
      secrets: [API_KEY],
      assets: { js: '', css: '' },
    });
    const login = (headers: Record<string, string>) =>
      call(panel.handler, { method: 'POST', path: '/login', headers, body: `token=${TOKEN}` });
    expect((await login({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(303);
    expect((await login({ 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await login({ Origin: 'http://evil.example', Host: '127.0.0.1:30120' })).status).toBe(403);
  });
});
