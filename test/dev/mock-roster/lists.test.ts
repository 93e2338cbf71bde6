import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster;
beforeAll(async () => {
  mock = await startMockRoster({ members: 120 });
});
afterAll(() => mock.close());

describe('mock roster list conventions', () => {
  it('pages with page=1 and limit=25 by default', async () => {
    const reply = await call(mock, '/api/v1/members');
    expect(reply.json.data).toHaveLength(25);
    expect(reply.json.meta.pagination).toEqual({
      page: 1,
      limit: 25,
      total: 120,
      total_pages: 5,
      has_more: true,
    });
  });

  it('serves the last page with has_more false', async () => {
    const reply = await call(mock, '/api/v1/members?page=3&limit=50');
    expect(reply.json.data).toHaveLength(20);
    expect(reply.json.meta.pagination).toMatchObject({ page: 3, total_pages: 3, has_more: false });
  });

  it('refuses limit over 100 with validation_error naming limit', async () => {
    const reply = await call(mock, '/api/v1/members?limit=101');
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe('validation_error');
    expect(reply.json.error.details.field).toBe('limit');
    expect((await call(mock, '/api/v1/members?limit=100')).status).toBe(200);
  });

  it.each(['limit=abc', 'limit=2.5', 'limit=0', 'page=0', 'page=-1'])('refuses %s', async (query) => {
    const reply = await call(mock, `/api/v1/members?${query}`);
    expect(reply.json.error.code).toBe('validation_error');
    expect(reply.json.error.details.field).toBe(query.split('=')[0]);
  });

  it('sorts ascending and, with a leading -, descending', async () => {
    const up = (await call(mock, '/api/v1/members?sort=joinDate&limit=100')).json.data;
    const down = (await call(mock, '/api/v1/members?sort=-joinDate&limit=100')).json.data;
    const dates = (rows: { joinDate: string }[]) => rows.map((r) => r.joinDate);
    expect(dates(up)).toEqual([...dates(up)].sort());
    expect(dates(down)).toEqual([...dates(down)].sort().reverse());
    expect((await call(mock, '/api/v1/members?sort=secret')).json.error.details.field).toBe('sort');
  });

  it('searches text fields with q, case-insensitively', async () => {
    const target = mock.data.members[7]!;
    const word = target.displayName.split(' ')[1]!.toUpperCase();
    const rows = (await call(mock, `/api/v1/members?q=${word}&limit=100`)).json.data as {
      displayName: string;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.displayName.toUpperCase().includes(word))).toBe(true);
  });

  it('treats a repeated filter as "either value"', async () => {
    const reply = await call(mock, '/api/v1/members?status=SUSPENDED&status=LOA&limit=100');
    const statuses = new Set(reply.json.data.map((m: { status: string }) => m.status));
    expect(statuses).toEqual(new Set(['SUSPENDED', 'LOA']));
  });

  it('finds members by several gameLicense values in one request', async () => {
    const licenses = [mock.data.licenseOf(3), mock.data.licenseOf(40), mock.data.nonMemberLicense()];
    const query = licenses.map((l) => `gameLicense=${encodeURIComponent(l)}`).join('&');
    const reply = await call(mock, `/api/v1/members?${query}`);
    expect(reply.json.data.map((m: { gameLicense: string }) => m.gameLicense).sort()).toEqual(
      licenses.slice(0, 2).sort(),
    );
  });

  it('refuses an unknown filter with validation_error naming it', async () => {
    const reply = await call(mock, '/api/v1/members?colour=blue');
    expect(reply.json.error.details.field).toBe('colour');
  });

  it('filters dates with .after and .before', async () => {
    const after = '2025-05-10T00:00:00Z';
    const before = '2025-05-20T00:00:00Z';
    const reply = await call(
      mock,
      `/api/v1/duty-sessions?startedAt.after=${after}&startedAt.before=${before}&limit=100`,
    );
    expect(reply.status).toBe(200);
    const starts = reply.json.data.map((s: { startedAt: string }) => Date.parse(s.startedAt));
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.every((t: number) => t > Date.parse(after) && t < Date.parse(before))).toBe(true);
    const all = mock.data.data.dutySessions.filter((s) => {
      const t = Date.parse(s.startedAt);
      return t > Date.parse(after) && t < Date.parse(before);
    });
    expect(reply.json.meta.pagination.total).toBe(all.length);
  });

  it('refuses a date that is not ISO 8601', async () => {
    const reply = await call(mock, '/api/v1/duty-sessions?startedAt.after=yesterday');
    expect(reply.json.error.details.field).toBe('startedAt.after');
  });

  it('also takes createdAt ranges on other resources', async () => {
    const reply = await call(mock, '/api/v1/members?createdAt.before=2022-06-01T00:00:00Z&limit=100');
    expect(reply.json.data.every((m: { createdAt: string }) => m.createdAt < '2022-06-01')).toBe(true);
  });
});

describe('mock roster assignments, departments and ranks', () => {
  it('lists a member’s assignments with include=rank expanded inline', async () => {
    const member = mock.data.memberWithSeveralDepartments();
    const reply = await call(mock, `/api/v1/department-assignments?memberId=${member.id}&include=rank`);
    expect(reply.json.data.length).toBeGreaterThanOrEqual(2);
    for (const a of reply.json.data) {
      expect(a).toMatchObject({
        memberId: member.id,
        departmentId: expect.any(String),
        isPrimary: expect.any(Boolean),
      });
      expect(a.rank).toMatchObject({
        id: a.rankId,
        departmentId: a.departmentId,
        position: expect.any(Number),
      });
    }
    expect(reply.json.data.filter((a: { isPrimary: boolean }) => a.isPrimary)).toHaveLength(1);
  });

  it('expands include=member and serves several members’ assignments in one call', async () => {
    const ids = [mock.data.members[1]!.id, mock.data.members[2]!.id];
    const reply = await call(
      mock,
      `/api/v1/department-assignments?memberId=${ids[0]}&memberId=${ids[1]}&include=member,rank`,
    );
    expect(new Set(reply.json.data.map((a: { memberId: string }) => a.memberId))).toEqual(new Set(ids));
    expect(reply.json.data[0].member.id).toBe(reply.json.data[0].memberId);
    expect((await call(mock, '/api/v1/department-assignments?include=owner')).json.error.details.field).toBe(
      'include',
    );
  });

  it('leaves rank out unless included', async () => {
    const reply = await call(mock, '/api/v1/department-assignments?limit=1');
    expect(reply.json.data[0].rank).toBeUndefined();
  });

  it('lists departments with id, name and shortName', async () => {
    const reply = await call(mock, '/api/v1/departments');
    expect(reply.json.data).toContainEqual(
      expect.objectContaining({ id: 'dept_lspd', name: 'Los Santos Police Department', shortName: 'LSPD' }),
    );
    expect(reply.json.data.map((d: { shortName: string }) => d.shortName)).toEqual(
      expect.arrayContaining(['BCSO', 'SAHP', 'SAFR', 'DOJ', 'CIV']),
    );
  });

  it('lists a department’s ranks with positions, 1 the most senior', async () => {
    const reply = await call(mock, '/api/v1/ranks?departmentId=dept_lspd&sort=position');
    const ladder = reply.json.data.map((r: { name: string; position: number }) => `${r.position} ${r.name}`);
    expect(ladder[0]).toBe('1 Chief');
    expect(ladder).toContain('5 Sergeant');
    expect(ladder).toContain('7 Officer');
    expect(ladder.at(-1)).toBe('8 Cadet');
    expect(reply.json.data.every((r: { departmentId: string }) => r.departmentId === 'dept_lspd')).toBe(true);
  });
});
