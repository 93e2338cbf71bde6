import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCommunity } from '../../../dev/mock-roster/seed-community';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster;
beforeAll(async () => {
  mock = await startMockRoster({ members: 300, seed: 7 });
});
afterAll(() => mock.close());

describe('mock roster seeded community', () => {
  it('is deterministic for a seed and different for another', () => {
    const a = seedCommunity({ seed: 7, members: 50 });
    const b = seedCommunity({ seed: 7, members: 50 });
    const c = seedCommunity({ seed: 8, members: 50 });
    expect(a).toEqual(b);
    expect(c.members[0]!.gameLicense).not.toBe(a.members[0]!.gameLicense);
  });

  it('gives members license:<40 hex> licenses, licenseOf(i) matching member i', () => {
    for (const [i, m] of mock.data.members.entries()) {
      expect(m.gameLicense).toMatch(/^license:[0-9a-f]{40}$/);
      expect(m.gameLicense).toBe(mock.data.licenseOf(i));
    }
    expect(new Set(mock.data.members.map((m) => m.gameLicense)).size).toBe(300);
    expect(mock.data.memberByLicense(mock.data.nonMemberLicense())).toBeUndefined();
  });

  it('has mostly ACTIVE members and every other status', () => {
    const statuses = mock.data.members.map((m) => m.status);
    expect(statuses.filter((s) => s === 'ACTIVE').length / statuses.length).toBeGreaterThan(0.7);
    expect(new Set(statuses)).toEqual(new Set(['ACTIVE', 'SUSPENDED', 'LOA', 'INACTIVE', 'TERMINATED']));
    expect(mock.data.suspendedMember().status).toBe('SUSPENDED');
  });

  it('gives every member at least one assignment and exactly one primary', () => {
    for (const m of mock.data.members) {
      const assignments = mock.data.assignmentsOf(m.id);
      expect(assignments.length).toBeGreaterThan(0);
      expect(assignments.filter((a) => a.isPrimary)).toHaveLength(1);
    }
    expect(mock.data.assignmentsOf(mock.data.memberWithSeveralDepartments().id).length).toBeGreaterThan(1);
  });

  it('seeds 50,000 members, each license once', () => {
    const big = seedCommunity({ seed: 1, members: 50_000 });
    expect(big.members).toHaveLength(50_000);
    expect(new Set(big.members.map((m) => m.gameLicense)).size).toBe(50_000);
  });
});

describe('mock roster mutation helpers', () => {
  it('shows a status change on the next request', async () => {
    const member = mock.data.members[20]!;
    mock.data.setMemberStatus(member.id, 'SUSPENDED');
    const reply = await call(mock, `/api/v1/members?gameLicense=${member.gameLicense}`);
    expect(reply.json.data[0].status).toBe('SUSPENDED');
  });

  it('shows a rank change made outside the API without an audit entry', async () => {
    const member = mock.data.members[21]!;
    const primary = mock.data.assignmentsOf(member.id).find((a) => a.isPrimary)!;
    const top = mock.data.data.ranks.find(
      (r) => r.departmentId === primary.departmentId && r.position === 1,
    )!;
    mock.data.setMemberRank(member.id, top.id);
    const reply = await call(mock, `/api/v1/department-assignments?memberId=${member.id}&include=rank`);
    expect(reply.json.data.find((a: { id: string }) => a.id === primary.id).rank.position).toBe(1);
    expect((await call(mock, `/api/v1/audit-logs?resourceId=${primary.id}`)).json.data).toHaveLength(0);
  });

  it('removes a member (and their assignments) and adds one', async () => {
    const gone = mock.data.members[22]!;
    mock.data.removeMember(gone.id);
    expect((await call(mock, `/api/v1/members?gameLicense=${gone.gameLicense}`)).json.data).toHaveLength(0);
    expect((await call(mock, `/api/v1/department-assignments?memberId=${gone.id}`)).json.data).toHaveLength(
      0,
    );

    const license = mock.data.nonMemberLicense(5);
    const added = mock.data.addMember({
      displayName: 'Pat Newcomer',
      gameLicense: license,
      departmentId: 'dept_lspd',
      rankId: 'rank_lspd_8',
    });
    const reply = await call(mock, `/api/v1/members?gameLicense=${license}`);
    expect(reply.json.data[0]).toMatchObject({ id: added.id, displayName: 'Pat Newcomer', status: 'ACTIVE' });
    const assignments = await call(mock, `/api/v1/department-assignments?memberId=${added.id}`);
    expect(assignments.json.data[0]).toMatchObject({
      departmentId: 'dept_lspd',
      rankId: 'rank_lspd_8',
      isPrimary: true,
    });
  });

  it('lists a returning member under one license twice: the old membership and the new, in either order', async () => {
    const listed = async (license: string) =>
      ((await call(mock, `/api/v1/members?gameLicense=${license}`)).json.data as { id: string }[]).map(
        (m) => m.id,
      );
    const [left, alsoLeft] = mock.data.members.filter(
      (m) => m.status === 'TERMINATED' || m.status === 'INACTIVE',
    );
    const back = mock.data.rejoin(left!.id, { displayName: 'Back Again' });
    expect(back).toMatchObject({
      gameLicense: left!.gameLicense,
      status: 'ACTIVE',
      displayName: 'Back Again',
    });
    expect(Date.parse(back.createdAt)).toBeGreaterThan(Date.parse(left!.createdAt));
    expect(await listed(left!.gameLicense)).toEqual([left!.id, back.id]);
    const first = mock.data.rejoin(alsoLeft!.id, { listedFirst: true });
    expect(await listed(alsoLeft!.gameLicense)).toEqual([first.id, alsoLeft!.id]);
  });
});
