import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call, fakeClock } from './http';

let mock: MockRoster;
const clock = fakeClock();
beforeAll(async () => {
  mock = await startMockRoster({ members: 20, now: clock.now });
});
afterAll(() => mock.close());

const lspdAssignment = () =>
  mock.data.assignmentsOf(mock.data.members[0]!.id).find((a) => a.departmentId === 'dept_lspd')!;
const patch = (id: string, body: unknown, options: { key?: string; contentType?: string | null } = {}) =>
  call(mock, `/api/v1/department-assignments/${id}`, { method: 'PATCH', body, ...options });

describe('mock roster PATCH /department-assignments/{id}', () => {
  it('changes the rank, returns the updated record and audits it as an API change by the key owner', async () => {
    const assignment = lspdAssignment();
    const from = assignment.rankId;
    const sergeant = mock.data.rankByName('LSPD', 'Sergeant');
    const reply = await patch(assignment.id, { rankId: sergeant.id });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toMatchObject({
      id: assignment.id,
      rankId: sergeant.id,
      updatedAt: new Date(clock.now()).toISOString(),
    });
    const listed = await call(mock, `/api/v1/department-assignments?id=${assignment.id}&include=rank`);
    expect(listed.json.data[0].rank.name).toBe('Sergeant');

    const audit = await call(mock, `/api/v1/audit-logs?resourceId=${assignment.id}`);
    expect(audit.json.data).toHaveLength(1);
    expect(audit.json.data[0]).toMatchObject({
      action: 'department_assignment.update',
      resourceType: 'department_assignment',
      source: 'API',
      actorId: 'usr_owner',
      apiKeyId: mock.keyId('full'),
      changes: { rankId: { from, to: sergeant.id } },
    });
  });

  it('accepts the departments write scope as well as the roster one', async () => {
    const officer = mock.data.rankByName('LSPD', 'Officer');
    expect(
      (await patch(lspdAssignment().id, { rankId: officer.id }, { key: mock.keys.departmentsWrite })).status,
    ).toBe(200);
    expect(
      (await patch(lspdAssignment().id, { rankId: officer.id }, { key: mock.keys.rosterWrite })).status,
    ).toBe(200);
  });

  it.each([
    ['an unknown rank', { rankId: 'rank_nope' }, 'rankId'],
    ['a rank of another department', { rankId: 'rank_bcso_1' }, 'rankId'],
    ['a missing rankId', {}, 'rankId'],
    ['a number', { rankId: 5 }, 'rankId'],
    ['a computed field', { rankId: 'rank_lspd_2', memberId: 'mem_00002' }, 'memberId'],
  ])('refuses %s with validation_error naming the field', async (_label, body, field) => {
    const reply = await patch(lspdAssignment().id, body);
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe('validation_error');
    expect(reply.json.error.details.field).toBe(field);
  });

  it('requires Content-Type: application/json', async () => {
    const reply = await patch(lspdAssignment().id, JSON.stringify({ rankId: 'rank_lspd_2' }), {
      contentType: 'text/plain',
    });
    expect(reply.json.error.code).toBe('validation_error');
    expect(reply.json.error.details.field).toBe('Content-Type');
  });

  it('refuses a body that is not JSON', async () => {
    const reply = await patch(lspdAssignment().id, '{rankId:', { contentType: 'application/json' });
    expect(reply.json.error.details.field).toBe('body');
  });

  it('answers not_found for an unknown assignment', async () => {
    expect((await patch('asg_nope', { rankId: 'rank_lspd_2' })).json.error.code).toBe('not_found');
  });
});
