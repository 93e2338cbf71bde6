import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster;
beforeAll(async () => {
  mock = await startMockRoster({ members: 30 });
});
afterAll(() => mock.close());

describe('mock roster envelope', () => {
  it('wraps success in {success, data, meta.request_id} matching X-Request-Id', async () => {
    const reply = await call(mock, '/api/v1/departments');
    expect(reply.json.success).toBe(true);
    expect(Array.isArray(reply.json.data)).toBe(true);
    expect(reply.json.meta.request_id).toBe(reply.headers.get('x-request-id'));
    expect(reply.json.error).toBeUndefined();
  });

  it('wraps failures in {success:false, error{code,message}} with the request id and rate-limit headers', async () => {
    const reply = await call(mock, '/api/v1/whoami', { key: 'rstr_kzzz_bad' });
    expect(reply.json.success).toBe(false);
    expect(reply.json.data).toBeUndefined();
    expect(reply.json.error).toMatchObject({ code: 'invalid_api_key', message: expect.any(String) });
    expect(reply.json.meta.request_id).toBe(reply.headers.get('x-request-id'));
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(reply.headers.get(h)).toMatch(/^\d+$/);
    }
  });

  it('gives a fresh request id per request', async () => {
    const a = await call(mock, '/api/v1/whoami');
    const b = await call(mock, '/api/v1/whoami');
    expect(a.json.meta.request_id).not.toBe(b.json.meta.request_id);
  });

  it('answers an unknown endpoint with 404 not_found', async () => {
    const reply = await call(mock, '/api/v1/vehicles');
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe('not_found');
  });

  it('answers an unknown record with 404 not_found', async () => {
    const reply = await call(mock, '/api/v1/members/mem_99999');
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe('not_found');
  });

  it('answers a method the resource lacks with 405 method_not_allowed and Allow', async () => {
    const reply = await call(mock, '/api/v1/members', { method: 'POST', body: {} });
    expect(reply.status).toBe(405);
    expect(reply.json.error.code).toBe('method_not_allowed');
    expect(reply.headers.get('allow')).toBe('GET');
  });

  it('answers 409 conflict when deleting a rank members still hold', async () => {
    const held = mock.data.data.assignments[0]!.rankId!;
    const reply = await call(mock, `/api/v1/ranks/${held}`, { method: 'DELETE' });
    expect(reply.status).toBe(409);
    expect(reply.json.error.code).toBe('conflict');
  });
});

describe('mock roster openapi.json', () => {
  it('is an OpenAPI 3.1 document describing members, assignments, departments and ranks', async () => {
    const reply = await call(mock, '/api/v1/openapi.json', { key: null });
    const doc = reply.json;
    expect(doc.openapi).toBe('3.1.0');
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.Member.properties)).toEqual(
      expect.arrayContaining(['id', 'status', 'gameLicense', 'displayName', 'departmentAssignments']),
    );
    expect(schemas.DepartmentAssignment.required).toEqual(
      expect.arrayContaining(['id', 'memberId', 'departmentId', 'rankId', 'isPrimary', 'callsign']),
    );
    expect(schemas.Department.required).toEqual(['id', 'name', 'shortName']);
    expect(schemas.Rank.required).toEqual(['id', 'departmentId', 'name', 'position']);
    const members = doc.paths['/api/v1/members'].get;
    const names = members.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['status', 'gameLicense', 'page', 'limit', 'sort', 'q']));
    const assignments = doc.paths['/api/v1/department-assignments'].get;
    const include = assignments.parameters.find((p: { name: string }) => p.name === 'include');
    expect(include.schema.enum).toEqual(expect.arrayContaining(['rank', 'member']));
    expect(doc.paths['/api/v1/department-assignments/{id}'].patch.requestBody).toBeDefined();
    expect(doc.paths['/api/v1/ranks'].get.parameters.map((p: { name: string }) => p.name)).toContain(
      'departmentId',
    );
  });
});
