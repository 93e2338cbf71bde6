import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

const TOKEN = 'integration-panel-token-0123';

const mirrored = (h: Harness) =>
  eventually(() => /the roster mirror holds \d+ members/.test(h.logText()), 10_000);

/** Starts roster; `origin` is the emulator's HTTP server (FXServer's game port, SetHttpHandler). */
async function startPanel(
  token: string | null,
  config?: Record<string, unknown>,
): Promise<{ h: Harness; origin: string }> {
  const h = await startHarness({ startResource: false, ...(config ? { config } : {}) });
  if (token !== null) h.server.executeCommand(`set roster_web_token "${token}"`);
  h.server.startResource('roster', h.folder);
  await eventually(() => h.logText().includes('connected to the roster'));
  return { h, origin: h.server.httpUrl };
}

describe('the owner panel over HTTP (SetHttpHandler)', () => {
  let h: Harness;
  let origin: string;
  const url = (path: string) => `${origin}/roster${path}`;
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const bodies: string[] = [];
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url(path), { headers, redirect: 'manual' });
    const body = await response.text();
    bodies.push(body, JSON.stringify([...response.headers]));
    return { response, body };
  };

  beforeAll(async () => {
    ({ h, origin } = await startPanel(TOKEN));
    await mirrored(h);
    const member = h.mock.data.members[0]!;
    const admitted = await h.server.connectPlayer({ name: 'Alice', identifiers: [member.gameLicense] })
      .decision;
    expect(admitted.admitted).toBe(true);
    const refused = await h.server.connectPlayer({
      name: 'Bob',
      identifiers: [h.mock.data.nonMemberLicense()],
    }).decision;
    expect(refused.admitted).toBe(false);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asks for the token on every path (401) and shows the login form on the page', async () => {
    for (const path of ['/', '/status.json', '/metrics', '/app.js']) {
      expect((await get(path)).response.status, path).toBe(401);
    }
    const { body } = await get('/');
    expect(body).toContain('action="login"');
  });

  it('serves the page, its bundle, status.json and metrics to the right Bearer token', async () => {
    const page = await get('/', bearer);
    expect(page.response.status).toBe(200);
    expect(page.body).toContain('src="app.js"');
    const js = await get('/app.js', bearer);
    expect(js.response.headers.get('content-type')).toContain('javascript');
    expect(js.body.length).toBeGreaterThan(20_000);
    const css = await get('/app.css', bearer);
    expect(css.body).toContain('.uplot');

    const status = await get('/status.json', bearer);
    const data = JSON.parse(status.body);
    expect(data.health.keyVerified).toBe(true);
    expect(data.health.community).toBe(h.mock.community.name);
    expect(data.players.online).toHaveLength(1);
    expect(data.players.online[0].name).toBe('Alice');
    expect(
      data.joins.recent.map((d: { admitted: boolean; reason: string }) => [d.admitted, d.reason]),
    ).toEqual([
      [false, 'not-on-roster'],
      [true, 'member'],
    ]);
    expect(data.rateLimit.requestsTotal).toBeGreaterThan(0);
    expect(data.mirror).toMatchObject({
      state: 'up',
      summary: "members' joins are decided without a request",
      held: h.mock.data.members.length,
      lastFullReadAt: expect.any(Number),
      caughtUpFromSnapshot: null,
      lastReadFailure: null,
    });
    expect(data.mirror.requestsToday).toBeGreaterThan(0);
    expect(js.body).toContain('last audit catch-up');

    const metrics = await get('/metrics', bearer);
    expect(metrics.body).toContain('roster_join_decisions_total{outcome="admitted",reason="member"} 1');
    expect(metrics.body).toContain('roster_join_decisions_total{outcome="refused",reason="not-on-roster"} 1');
    expect(metrics.body).toContain('roster_online_players 1');
    expect(metrics.body).toMatch(/roster_requests_total [1-9]/);
    for (const [, name] of metrics.body.matchAll(/^# TYPE (\S+)/gm)) expect(name).toMatch(/^roster_/);
  });

  it('trades the token for a session cookie through the login form', async () => {
    const login = await fetch(url('/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(TOKEN)}`,
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const setCookie = login.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/roster\//);
    bodies.push(setCookie);
    const cookie = setCookie.split(';')[0]!;
    expect((await get('/status.json', { cookie })).response.status).toBe(200);
  });

  it('runs doctor on POST only', async () => {
    expect((await get('/doctor', bearer)).response.status).toBe(405);
    const run = await fetch(url('/doctor'), { method: 'POST', headers: bearer });
    const result = (await run.json()) as { lines: string[] };
    bodies.push(JSON.stringify(result));
    expect(run.status).toBe(200);
    expect(result.lines.join('\n')).toContain('key works');
    const status = JSON.parse((await get('/status.json', bearer)).body);
    expect(status.doctor.last.lines).toEqual(result.lines);
  });

  it('locks an address out after five wrong tokens (429), yet serves the right token and a session from it', async () => {
    const login = await fetch(url('/login'), { method: 'POST', body: `token=${TOKEN}`, redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const wrong = { authorization: 'Bearer wrong-token-wrong-token' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get('/status.json', wrong)).response.status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const locked = await get('/status.json', wrong);
    expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(590);
    // Credentials come first: the owner's session and the scraper's token are never locked out.
    expect((await get('/metrics', bearer)).response.status).toBe(200);
    expect((await get('/status.json', { cookie })).response.status).toBe(200);
  });

  it('never puts the key or the token in any response', () => {
    const key = String(h.mock.keys.full);
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(body).not.toContain(key);
      expect(body).not.toContain(TOKEN);
    }
  });
});

describe("the owner panel's mirror row across a restart", () => {
  it('says the mirror caught up from the snapshot, when, in how many audit reads', async () => {
    // The log read every second, so the feed has a position to save soon.
    const { h, origin } = await startPanel(TOKEN, { refresh: { auditSeconds: 1 } });
    const status = async () => {
      const response = await fetch(`${origin}/roster/status.json`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      return (await response.json()) as { mirror: Record<string, unknown> };
    };
    try {
      await mirrored(h);
      for (let frames = 0; (await status()).mirror.lastAuditCatchUpAt === null; frames++) {
        if (frames === 400) throw new Error('the audit feed never read the log');
        await h.server.nextTick();
      }
      h.server.stopResource('roster');
      h.server.startResource('roster', h.folder);
      // Before the catch-up completes the row says so; polled on the server's frames.
      let mirror = (await status()).mirror;
      for (let frames = 0; mirror.state !== 'up'; frames++) {
        expect(['catching-up', 'up']).toContain(mirror.state);
        if (frames === 400) throw new Error(`still ${String(mirror.state)}`);
        await h.server.nextTick();
        mirror = (await status()).mirror;
      }
      expect(mirror).toMatchObject({
        held: h.mock.data.members.length,
        caughtUpFromSnapshot: { at: expect.any(Number), reads: 1 },
        lastAuditCatchUpAt: expect.any(Number),
      });
    } finally {
      await h.close();
    }
  });
});

describe('the owner panel behind a reverse proxy on the same machine', () => {
  let h: Harness;
  let origin: string;
  /** A request as nginx passes it on: Host rewritten to the upstream, the client in X-Forwarded-*. */
  const proxied = async (
    path: string,
    client: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const response = await undiciRequest(`${origin}/roster${path}`, {
      method: (init.method ?? 'GET') as 'GET',
      headers: {
        host: new URL(origin).host,
        'x-forwarded-for': client,
        'x-forwarded-host': 'panel.example.com',
        'x-forwarded-proto': 'https',
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    await response.body.text();
    return response;
  };
  const wrong = { authorization: 'Bearer wrong-token-wrong-token' };

  beforeAll(async () => {
    ({ h, origin } = await startPanel(TOKEN, { panel: { trustedProxies: ['127.0.0.1'] } }));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('locks out the client sending wrong tokens, not the owner or the scraper behind the same proxy', async () => {
    const login = await proxied('/login', '198.51.100.7', {
      method: 'POST',
      headers: { origin: 'https://panel.example.com', 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
    });
    // Host is the upstream's, yet the form is not taken for a cross-site post.
    expect(login.statusCode).toBe(303);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict; Secure$/);
    const cookie = setCookie.split(';')[0]!;
    const attacker: number[] = [];
    for (let i = 0; i < 6; i++) {
      attacker.push((await proxied('/status.json', '203.0.113.66', { headers: wrong })).statusCode);
    }
    expect(attacker).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await proxied('/status.json', '198.51.100.7', { headers: { cookie } })).statusCode).toBe(200);
    const scraper = await proxied('/metrics', '192.0.2.10', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(scraper.statusCode).toBe(200);
    // Another client's wrong token through the same proxy is a plain 401, not the attacker's 429.
    expect((await proxied('/status.json', '192.0.2.11', { headers: wrong })).statusCode).toBe(401);
    const cross = await proxied('/login', '198.51.100.7', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: `token=${TOKEN}`,
    });
    expect(cross.statusCode).toBe(403);
  });

  it("a client adding its own X-Forwarded-For beside the proxy's line cannot name itself anew each try", async () => {
    // As through a proxy that appends a line of its own (HAProxy's option forwardfor) rather than
    // replacing the client's: the client's spelling sorts first in FXServer's header map.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await undiciRequest(`${origin}/roster/status.json`, {
        headers: [
          'Authorization',
          wrong.authorization,
          'X-FORWARDED-FOR',
          `198.18.0.${i + 1}`,
          'X-Forwarded-For',
          '203.0.113.77',
        ],
      });
      await response.body.text();
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    // The right token from the same proxy is still served (credentials are checked first).
    expect(
      (await proxied('/metrics', '192.0.2.10', { headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
    ).toBe(200);
  });

  it('counts an IPv6 client by its /64, the same on the Bearer path and the login form', async () => {
    for (let i = 0; i < 5; i++) await proxied('/status.json', '2001:db8::1:0:0:5', { headers: wrong });
    const form = (client: string) =>
      proxied('/login', client, { method: 'POST', body: 'token=guess' }).then((r) => r.statusCode);
    expect(await form('2001:db8::1:0:0:5')).toBe(429);
    expect(await form('2001:db8::7')).toBe(429);
    expect(await form('2001:db8:0:1::5')).toBe(401);
  });
});

describe('the owner panel when roster_web_token is not set', () => {
  it('is off: no handler, FXServer answers 404', async () => {
    const { h, origin } = await startPanel(null);
    try {
      const response = await fetch(`${origin}/roster/`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(404);
      expect(h.logText()).not.toContain("owner's panel is on");
    } finally {
      await h.close();
    }
  });

  it('stays off with a token shorter than 16 characters, and says why', async () => {
    const { h, origin } = await startPanel('too-short');
    try {
      expect((await fetch(`${origin}/roster/`)).status).toBe(404);
      expect(h.logText()).toContain('roster_web_token must be at least 16 characters');
      expect(h.logText()).not.toContain('too-short');
    } finally {
      await h.close();
    }
  });
});
