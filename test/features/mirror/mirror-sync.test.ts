import { afterEach, describe, expect, it } from 'vitest';
import { maxInAnyWindow } from '../../http/limiter/fake-clock';
import { license, ok, outcome } from '../../roster/client/fake-roster';
import { followedFeed, mirrorRig, until } from './fake-community';

type Rig = ReturnType<typeof mirrorRig>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/**
 * Starts the mirror with departments and ranks loaded (and an audit feed that keeps reaching the
 * end of the log, unless `feed` is false), and waits for its first read to complete.
 */
async function upAndRead(options: Parameters<typeof mirrorRig>[0] = {}, feed = true): Promise<Rig> {
  rig = mirrorRig(options);
  const r = rig;
  await r.catalog.load();
  if (feed) r.sync.follow(followedFeed(r));
  r.sync.begin();
  await until(r.clock, () => r.sync.report().state.kind === 'up');
  return r;
}

describe('the first read', () => {
  it('reads every page of members and assignments, never more than half the key minute in any 60 s', async () => {
    // 1,000 members, every fifth in two departments: 11 member pages and 13 assignment pages. Each
    // page is asked after the newest stamp read (whose record it reads again); the last one, newest
    // first, also counts the list.
    rig = mirrorRig({ members: 1000, perMinute: 20 });
    const r = rig;
    await r.catalog.load();
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    const sent = r.mirrorRequests();
    const pages = (path: string) => sent.filter((q) => q.path === path).map((q) => q.query.get('limit'));
    expect(pages('/api/v1/members')).toEqual(Array.from({ length: 11 }, () => '100'));
    expect(pages('/api/v1/department-assignments')).toHaveLength(13);
    expect(
      maxInAnyWindow(
        sent.map((q) => q.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(10);
    // Paced, not just capped by the limiter: 24 requests at 10 a minute take over two minutes.
    expect(sent.at(-1)!.at - sent[0]!.at).toBeGreaterThanOrEqual(120_000);
    expect(r.sync.report()).toMatchObject({ held: 1000, requestsToday: 24 });
  });

  it('follows a lower limit the service announces', async () => {
    rig = mirrorRig({ members: 1000, perMinute: 120 });
    const r = rig;
    // The limiter follows the service's X-RateLimit-Limit: 12 a minute leaves the mirror 6.
    const base = r.community.handler;
    r.community.handler = (request) => {
      const reply = base(request);
      return { ...reply, headers: { ...reply.headers, 'x-ratelimit-limit': '12' } };
    };
    await r.catalog.load();
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    expect(
      maxInAnyWindow(
        r.mirrorRequests().map((q) => q.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(6);
  });

  it('leaves joins to the service until it is complete, and joins are not held behind it', async () => {
    rig = mirrorRig({ members: 1000, perMinute: 20 });
    const r = rig;
    await r.catalog.load();
    r.sync.begin();
    await r.clock.advance(30_000);
    expect(r.sync.report().state.kind).toBe('reading');
    const before = r.requests.length;
    let answered = false;
    void r.members.resolve(license(5), 'join', { decideOnly: true }).then(() => {
      answered = true;
    });
    await until(r.clock, () => answered, 10_000);
    expect(r.requests.length).toBeGreaterThan(before);
  });

  it('skips unreadable records with one warning for the whole read', async () => {
    rig = mirrorRig({ members: 300 });
    const r = rig;
    for (const id of ['m-3', 'm-150', 'm-299']) r.community.unreadable.add(id);
    await r.catalog.load();
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    const warnings = r.mirrorLines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/skipped 3 member record\(s\)/);
    expect(r.sync.report().held).toBe(297);
  });
});

describe('joins from the mirror', () => {
  it('answers a member it holds with no request, with departments and ranks', async () => {
    const r = await upAndRead();
    const before = r.requests.length;
    const resolution = await r.members.resolve(license(6), 'join', { decideOnly: true });
    expect(r.requests.length).toBe(before);
    expect(resolution.kind === 'answer' && resolution.view?.member).toMatchObject({
      id: 'm-5',
      status: 'ACTIVE',
      license: license(6),
      departments: [
        { id: 'd-lspd', shortName: 'LSPD', primary: true, rank: { name: 'Officer' } },
        { id: 'd-safr', shortName: 'SAFR', primary: false, rank: { name: 'Firefighter' } },
      ],
    });
    // Exports and the assignment ids (rank changes, the audit feed) read the same view.
    expect(resolution.kind === 'answer' && resolution.view?.assignments.get('d-safr')).toBe('a-5-fire');
  });

  it('stops answering while the roster is not known whole for 2.5 audit intervals, and answers again once it is', async () => {
    let readable = true;
    const r = await upAndRead({}, false);
    r.sync.follow(followedFeed(r, () => readable));
    const asked = async () => {
      const before = r.requests.length;
      await r.members.resolve(license(6), 'join', { decideOnly: true });
      return r.requests.length - before;
    };
    expect(await asked()).toBe(0);
    await r.clock.advance(120_000);
    expect(await asked()).toBe(0);
    // The audit log cannot be read (passMs 60 s): 2.5 intervals after it last reached the end.
    readable = false;
    await r.clock.advance(150_000);
    expect(await asked()).toBeGreaterThan(0);
    // It reaches the end of the log again: what is held is current again.
    readable = true;
    expect(await asked()).toBe(0);
  });

  it('a full read knows the roster as of when it began: a long one, with the audit log unreadable, answers nothing it may have missed', async () => {
    // 2,500 members at 10 requests a minute: the read takes minutes, longer than 2.5 audit intervals.
    rig = mirrorRig({ members: 2_500, perMinute: 20 });
    const r = rig;
    await r.catalog.load();
    r.sync.follow(followedFeed(r, () => false));
    r.sync.begin();
    await until(r.clock, () => r.mirrorRequests().length >= 3);
    // Suspended after the page holding them was read; the audit log that says so cannot be read.
    r.community.members[6]!.status = 'SUSPENDED';
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    const before = r.requests.length;
    const resolution = await r.members.resolve(license(7), 'join', { decideOnly: true });
    expect(resolution.kind === 'answer' && resolution.view?.member.status).toBe('SUSPENDED');
    expect(r.requests.length).toBeGreaterThan(before);
  });

  it('decides a member whose status is refused from the mirror too', async () => {
    rig = mirrorRig({ members: 0 });
    const r = rig;
    for (let i = 0; i < 10; i++) r.community.add(i === 3 ? 'SUSPENDED' : 'ACTIVE');
    await r.catalog.load();
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    const before = r.requests.length;
    const resolution = await r.members.resolve(license(4), 'join', { decideOnly: true });
    expect(resolution.kind === 'answer' && resolution.view?.member.status).toBe('SUSPENDED');
    expect(r.requests.length).toBe(before);
  });

  it('never says "not on the roster" by itself: a license it lacks is asked', async () => {
    const r = await upAndRead();
    const stranger = `license:${'f'.repeat(40)}`;
    const before = r.requests.length;
    const resolution = await r.members.resolve(stranger, 'join', { decideOnly: true });
    expect(resolution).toMatchObject({ kind: 'answer', view: null });
    const asked = r.requests.slice(before).filter((q) => q.path === '/api/v1/members');
    expect(asked.map((q) => q.query.getAll('gameLicense'))).toEqual([[stranger]]);
  });

  it('a member added after the read is looked up once, then answered from the mirror', async () => {
    const r = await upAndRead({ passMs: 24 * 3_600_000 });
    const added = r.community.add();
    const first = await r.members.resolve(added.gameLicense, 'join', { decideOnly: true });
    expect(first.kind === 'answer' && first.view?.member.id).toBe(added.id);
    expect(r.sync.report().held).toBe(251);
    // Past the cache's freshness, only the mirror can answer without a request.
    await r.clock.advance(700_000);
    const before = r.requests.length;
    const again = await r.members.resolve(added.gameLicense, 'join', { decideOnly: true });
    expect(again.kind === 'answer' && again.view?.member.id).toBe(added.id);
    expect(r.requests.length).toBe(before);
  });

  it('takes every answer: a re-read replaces the record, and "gone" removes it', async () => {
    const r = await upAndRead({ passMs: 24 * 3_600_000 });
    r.community.members[7]!.status = 'SUSPENDED';
    await outcome(r.clock, r.members.fetch(license(8), 'refresh'));
    const changed = await r.members.resolve(license(8), 'join');
    expect(changed.kind === 'answer' && changed.view?.member.status).toBe('SUSPENDED');
    r.community.remove('m-9');
    await outcome(r.clock, r.members.fetch(license(10), 'refresh'));
    expect(r.sync.report().held).toBe(249);
    // No longer held: past the cache's "not on the roster", the service is asked again.
    await r.clock.advance(120_000);
    const before = r.requests.length;
    await r.members.resolve(license(10), 'join');
    expect(r.requests.length).toBeGreaterThan(before);
  });

  it('is not consulted before departments and ranks are known', async () => {
    rig = mirrorRig();
    const r = rig;
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    const before = r.requests.length;
    await r.members.resolve(license(6), 'join');
    expect(r.requests.length).toBeGreaterThan(before);
  });
});

describe('too large a roster', () => {
  it('turns the mirror off with one warning, from the first page when the service counts', async () => {
    rig = mirrorRig({ members: 250, maxEntries: 200 });
    const r = rig;
    await r.catalog.load();
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'off');
    expect(r.mirrorRequests()).toHaveLength(1);
    const warnings = r.mirrorLines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/more than cache\.maxEntries \(200\) members/);
    // Off for good: later passes read nothing, and joins are looked up.
    await r.clock.advance(600_000);
    expect(r.mirrorRequests()).toHaveLength(1);
    const before = r.requests.length;
    await r.members.resolve(license(6), 'join');
    expect(r.requests.length).toBeGreaterThan(before);
  });

  it('and when the service does not count, as soon as the pages read pass the bound', async () => {
    rig = mirrorRig({ members: 450, maxEntries: 250 });
    const r = rig;
    r.community.withoutTotal = true;
    await r.catalog.load();
    r.sync.begin();
    await until(r.clock, () => r.sync.report().state.kind === 'off');
    expect(r.mirrorRequests()).toHaveLength(3);
    expect(r.mirrorLines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });
});

describe('kept current', () => {
  it('reads members created since its newest, by createdAt.after a millisecond before its stamp, every 10 minutes', async () => {
    const r = await upAndRead({ members: 120 });
    // Members stamped the same millisecond as the newest one held are not missed.
    const justBefore = (stamp: string) => new Date(Date.parse(stamp) - 1).toISOString();
    const newest = justBefore(r.community.members.at(-1)!.createdAt);
    await r.clock.advance(5_000);
    const added = r.community.add();
    const from = r.mirrorRequests().length;
    // Not at each audit pass (60 s here): a new member is looked up at their join meanwhile.
    await r.clock.advance(8 * 60_000);
    expect(r.mirrorRequests().length).toBe(from);
    await r.clock.advance(2 * 60_000);
    const pass = r.mirrorRequests().slice(from);
    expect(pass.map((q) => [q.path, q.query.get('createdAt.after')])).toEqual([
      ['/api/v1/members', newest],
      ['/api/v1/department-assignments', null],
    ]);
    // The newest member held, read again for that millisecond, is not read again in full.
    expect(pass[1]!.query.getAll('memberId')).toEqual([added.id]);
    const sent = r.requests.length;
    const resolution = await r.members.resolve(added.gameLicense, 'join');
    expect(resolution.kind === 'answer' && resolution.view?.member.id).toBe(added.id);
    expect(r.requests.length).toBe(sent);
    // The next read starts from the member just read, and costs one request.
    const next = r.mirrorRequests().length;
    await r.clock.advance(10 * 60_000);
    expect(
      r
        .mirrorRequests()
        .slice(next)
        .map((q) => q.query.get('createdAt.after')),
    ).toEqual([justBefore(added.createdAt)]);
  });

  it("a full read is the online players' safety net: a change no one reported reaches them with no lookup", async () => {
    const r = await upAndRead({ members: 120 });
    const target = r.community.members[5]!;
    const entry = { license: target.gameLicense, name: 'P', view: undefined, since: r.clock.now() };
    r.players.add('1', entry);
    await r.online.loadPlayer('1', entry);
    expect(r.players.get('1')?.view?.member.status).toBe('ACTIVE');
    // Suspended on the roster with no audit entry and no lookup: only a full read can tell.
    target.status = 'SUSPENDED';
    const lookups = () => r.requests.filter((q) => q.query.has('gameLicense')).length;
    const before = lookups();
    await r.sync.resync();
    await until(r.clock, () => r.players.get('1')?.view?.member.status === 'SUSPENDED');
    expect(lookups()).toBe(before);
  });

  it('reads everything again on demand; an answer heard meanwhile that the read contradicts is asked again, never taken from either', async () => {
    const r = await upAndRead({ members: 1000, perMinute: 20, passMs: 24 * 3_600_000 });
    const from = r.mirrorRequests().length;
    const firstRead = r.sync.report().lastFullReadAt!;
    const resync = r.sync.resync();
    // The read takes minutes at this pace: a member suspended and re-read meanwhile, then active
    // again before the read's page of them (so the page says ACTIVE, the answer SUSPENDED).
    await r.clock.advance(5_000);
    r.community.members[4]!.status = 'SUSPENDED';
    await outcome(r.clock, r.members.fetch(license(5), 'refresh'), 100);
    r.community.members[4]!.status = 'ACTIVE';
    let done = false;
    void resync.then(() => {
      done = true;
    });
    await until(r.clock, () => done);
    expect(r.mirrorRequests().length - from).toBeGreaterThanOrEqual(24);
    // Which of the two is newer is not known: it was read again, and what the service says holds.
    const held = await r.members.resolve(license(5), 'join');
    expect(held.kind === 'answer' && held.view?.member.status).toBe('ACTIVE');
    expect(r.sync.report().lastFullReadAt).toBeGreaterThan(firstRead);
  });

  it('a list that comes back empty while it says more pages follow fails the read: the good mirror stays whole', async () => {
    const r = await upAndRead({ members: 250, passMs: 24 * 3_600_000 });
    const departments = () =>
      Array.from({ length: 250 }, (_, i) => r.members.resolve(license(i + 1), 'join'));
    const before = (await Promise.all(departments())).map(
      (res) => res.kind === 'answer' && res.view?.member.departments.length,
    );
    expect(before.filter((n) => n === 0)).toEqual([]);
    const base = r.community.handler;
    r.community.handler = (request) => {
      const later = request.query.has('createdAt.after') || request.query.get('sort') === '-createdAt';
      if (request.path !== '/api/v1/department-assignments' || !later) return base(request);
      return ok([], { pagination: { page: 1, limit: 100, has_more: true } });
    };
    let done = false;
    void r.sync.resync().then(() => {
      done = true;
    });
    await until(r.clock, () => done);
    r.community.handler = base;
    const after = (await Promise.all(departments())).map(
      (res) => res.kind === 'answer' && res.view?.member.departments.length,
    );
    expect(after).toEqual(before);
    expect(r.sync.report().failure).toMatch(
      /empty page of GET \/api\/v1\/department-assignments after .* said more follow/,
    );
  });

  it('reads everything again every mirror.resyncMinutes', async () => {
    const r = await upAndRead({ members: 120, passMs: 24 * 3_600_000, resyncMs: 30 * 60_000 });
    const firstRead = r.sync.report().lastFullReadAt!;
    r.community.members[2]!.displayName = 'Renamed';
    await r.clock.advance(31 * 60_000);
    expect(r.sync.report().lastFullReadAt).toBeGreaterThan(firstRead);
    const resolution = await r.members.resolve(license(3), 'join');
    expect(resolution.kind === 'answer' && resolution.view?.member.name).toBe('Renamed');
  });

  it('tries a failed first read again at the next pass, warning once', async () => {
    rig = mirrorRig({ members: 120 });
    const r = rig;
    await r.catalog.load();
    const base = r.community.handler;
    let failing = true;
    r.community.handler = (request) =>
      failing && request.path === '/api/v1/members'
        ? {
            status: 403,
            body: { success: false, error: { code: 'insufficient_scope', message: 'roster:read' } },
          }
        : base(request);
    r.sync.begin();
    await r.clock.advance(130_000);
    expect(r.sync.report()).toMatchObject({ state: { kind: 'reading' }, failure: expect.any(String) });
    expect(r.mirrorLines.filter((l) => l.level === 'warn')).toHaveLength(1);
    failing = false;
    await until(r.clock, () => r.sync.report().state.kind === 'up', 120_000);
    expect(r.sync.report()).toMatchObject({ held: 120, failure: null });
  });
});
