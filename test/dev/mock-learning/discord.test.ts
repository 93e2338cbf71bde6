import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCORD_IDS, type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import { call, DAY_MS, fakeClock } from './http';

let mock: MockLearning;
const clock = fakeClock();
const [ALEX, JORDAN, CASEY, RILEY] = DISCORD_IDS;
const NEWCOMER = '330000000000000042';
beforeAll(async () => {
  mock = await startMockLearning({ now: clock.now });
});
afterAll(() => mock.close());

const requestLink = (discord_id: string, discord_username = 'newcomer') =>
  call(mock, '/discord/link-requests', {
    method: 'POST',
    key: mock.keys.read,
    body: { discord_id, discord_username },
  });

describe('mock learning link flow', () => {
  it('request → confirm → linked → already_linked → delete → not linked', async () => {
    expect((await call(mock, `/discord/links/${NEWCOMER}`)).json).toEqual({ linked: false });

    const request = await requestLink(NEWCOMER);
    expect(request.status).toBe(201);
    expect(request.json).toEqual({
      already_linked: false,
      code: expect.stringMatching(/^[A-Z2-9]{6}$/),
      confirm_url: `${mock.url}/link/discord?code=${request.json.code}`,
      expires_at: new Date(clock.now() + 10 * 60_000).toISOString(),
    });
    const user_sub = mock.data.users[7]!.user_sub;
    expect(mock.data.confirmLink(request.json.code, user_sub)).toEqual({ ok: true, discord_id: NEWCOMER });

    expect((await call(mock, `/discord/links/${NEWCOMER}`)).json).toEqual({ linked: true, user_sub });
    const again = await requestLink(NEWCOMER);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ already_linked: true, user_sub });

    const removed = await call(mock, `/discord/links/${NEWCOMER}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await call(mock, `/discord/links/${NEWCOMER}`)).json).toEqual({ linked: false });
    const twice = await call(mock, `/discord/links/${NEWCOMER}`, { method: 'DELETE' });
    expect(twice.status).toBe(404);
    expect(twice.json.error.code).toBe('not_linked');
  });

  it('a code expires after 10 minutes, is single use, and a new request replaces a pending one', async () => {
    const sub = mock.data.users[8]!.user_sub;
    const first = (await requestLink('440000000000000001')).json.code;
    const second = (await requestLink('440000000000000001')).json.code;
    expect(second).not.toBe(first);
    expect(mock.data.confirmLink(first, sub)).toEqual({ ok: false, reason: 'unknown_code' });
    clock.advance(10 * 60_000);
    expect(mock.data.confirmLink(second, sub)).toEqual({ ok: false, reason: 'expired' });
    const third = (await requestLink('440000000000000001')).json.code;
    expect(mock.data.confirmLink(third, 'sub_nobody')).toEqual({ ok: false, reason: 'unknown_user' });
    expect(mock.data.confirmLink(third, sub).ok).toBe(true);
    expect(mock.data.confirmLink(third, sub)).toEqual({ ok: false, reason: 'unknown_code' });
    mock.data.unlink('440000000000000001');
  });

  it('validates the link request body', async () => {
    for (const [body, field] of [
      [{ discord_id: 'abc', discord_username: 'x' }, 'discord_id'],
      [{ discord_id: 123456789, discord_username: 'x' }, 'discord_id'],
      [{ discord_id: NEWCOMER }, 'discord_username'],
    ] as const) {
      const reply = await call(mock, '/discord/link-requests', { method: 'POST', body });
      expect(reply.status).toBe(422);
      expect(reply.json.error.details.field).toBe(field);
    }
  });
});

describe('mock learning discord reads', () => {
  it('lists the enrollments (title, status) of a linked user; 404 not_linked otherwise', async () => {
    const reply = await call(mock, `/discord/enrollments/${JORDAN}`);
    expect(reply.json.user_sub).toBe(mock.data.users[1]!.user_sub);
    expect(reply.json.enrollments.map((e: { title: string; status: string }) => [e.title, e.status])).toEqual(
      [
        ['Fire Academy', 'completed'],
        ['EMS First Responder', 'in_progress'],
      ],
    );
    const missing = await call(mock, `/discord/enrollments/${NEWCOMER}`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_linked');
  });

  it('lists completions of linked users only, each with discord_id', async () => {
    const reply = await call(mock, '/discord/completions');
    const linkedSubs = new Map([...mock.data.links].map(([d, s]) => [s, d]));
    const expected = mock.data.completions.filter((c) => linkedSubs.has(c.user_sub));
    expect(reply.json.completions).toHaveLength(expected.length);
    for (const c of reply.json.completions) expect(c.discord_id).toBe(linkedSubs.get(c.user_sub));
    const unlinked = mock.data.users[4]!.user_sub;
    expect(mock.data.completions.some((c) => c.user_sub === unlinked)).toBe(true);
    expect(reply.json.completions.some((c: { user_sub: string }) => c.user_sub === unlinked)).toBe(false);
  });

  it('pages discord completions when the server cuts pages', async () => {
    mock.faults.paging(2);
    try {
      const first = await call(mock, '/discord/completions');
      expect(first.json).toMatchObject({ page: 1, limit: 2, has_more: true, next_page: 2 });
      expect(first.json.completions).toHaveLength(2);
    } finally {
      mock.faults.paging(null);
    }
  });

  it('lets a test choose who is linked', async () => {
    const custom = await startMockLearning({ links: [{ discordId: '999000111', user: 4 }] });
    try {
      expect((await call(custom, `/discord/links/${ALEX}`, { key: custom.keys.read })).json.linked).toBe(
        false,
      );
      expect((await call(custom, '/discord/links/999000111', { key: custom.keys.read })).json).toEqual({
        linked: true,
        user_sub: custom.data.users[4]!.user_sub,
      });
      const completions = (await call(custom, '/discord/completions', { key: custom.keys.read })).json
        .completions;
      expect(completions.map((c: { discord_id: string }) => c.discord_id)).toEqual(['999000111']);
    } finally {
      await custom.close();
    }
  });
});

describe('mock learning expiring certificates', () => {
  let expiring: MockLearning;
  const start = fakeClock();
  beforeAll(async () => {
    expiring = await startMockLearning({ now: start.now });
  });
  afterAll(() => expiring.close());
  const titles = async (query: string) =>
    (
      await call(expiring, `/discord/expiring-certificates${query}`, { key: expiring.keys.read })
    ).json.certificates.map((c: { discord_id: string; title: string }) => `${c.discord_id}:${c.title}`);

  it('defaults to 30 days: active certificates of linked users, soonest first', async () => {
    const reply = await call(expiring, '/discord/expiring-certificates', { key: expiring.keys.read });
    expect(reply.json.days).toBe(30);
    // Excluded: ALEX's Advanced Driving (+60 D), JORDAN's revoked one, RILEY's expired one, user 4 (unlinked).
    expect(await titles('')).toEqual([`${ALEX}:Police Academy`, `${JORDAN}:Fire Academy`]);
    expect(reply.json.certificates[0]).toEqual({
      id: expect.stringMatching(/^cert_/),
      discord_id: ALEX,
      user_sub: expiring.data.users[0]!.user_sub,
      course_id: expiring.data.course('Police Academy')!.id,
      title: 'Police Academy',
      issued_at: new Date(start.now() + (10 - 365) * DAY_MS).toISOString(),
      expires_at: new Date(start.now() + 10 * DAY_MS).toISOString(),
    });
    expect(await titles('')).not.toContain(`${CASEY}:Police Academy`);
    expect(await titles('')).not.toContain(`${RILEY}:Police Academy`);
  });

  it('honours days and the clock', async () => {
    expect(await titles('?days=10')).toEqual([`${ALEX}:Police Academy`]);
    expect(await titles('?days=9')).toEqual([]);
    expect(await titles('?days=60')).toHaveLength(3);
    start.advance(11 * DAY_MS);
    expect(await titles('?days=30')).toEqual([`${JORDAN}:Fire Academy`]);
    expect(await titles('?days=49')).toEqual([`${JORDAN}:Fire Academy`, `${ALEX}:Advanced Driving`]);
  });

  it('rejects a bad days value with 422', async () => {
    for (const days of ['0', 'x', '366', '1.5']) {
      const reply = await call(expiring, `/discord/expiring-certificates?days=${days}`, {
        key: expiring.keys.read,
      });
      expect(reply.status).toBe(422);
      expect(reply.json.error.details.field).toBe('days');
    }
  });
});

describe('mock learning gamification', () => {
  it('returns xp, level and badges of a linked user; 404 when not linked', async () => {
    const reply = await call(mock, `/discord/gamification/${ALEX}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ discord_id: ALEX, user_sub: mock.data.users[0]!.user_sub });
    expect(reply.json.xp).toBeGreaterThanOrEqual(300);
    expect(reply.json.level).toBe(Math.floor(reply.json.xp / 200) + 1);
    expect(reply.json.badges.map((b: { id: string }) => b.id)).toEqual([
      'first-course',
      'police-graduate',
      'certified',
    ]);
    expect(reply.json.badges[0]).toEqual({
      id: 'first-course',
      name: 'First Course',
      awarded_at: expect.any(String),
    });
    const missing = await call(mock, `/discord/gamification/${NEWCOMER}`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_linked');
  });

  it('ranks the leaderboard as a bare array of { rank, name, points }', async () => {
    const reply = await call(mock, '/gamification/leaderboard?limit=5');
    expect(reply.json).toHaveLength(5);
    expect(reply.json.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5]);
    const points = reply.json.map((e: { points: number }) => e.points);
    expect([...points].sort((a, b) => b - a)).toEqual(points);
    expect(Object.keys(reply.json[0]).sort()).toEqual(['name', 'points', 'rank']);
  });
});
