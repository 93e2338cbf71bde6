import { describe, expect, it } from 'vitest';
import { checkAssumptions } from '../../../src/roster/client/openapi-check';

const list = (ref: string) => ({
  responses: {
    '200': {
      content: {
        'application/json': {
          schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: ref } } } },
        },
      },
    },
  },
});

const document = {
  openapi: '3.1.0',
  paths: {
    '/api/v1/members': {
      get: { parameters: [{ name: 'gameLicense', in: 'query' }], ...list('#/components/schemas/Member') },
    },
    '/api/v1/department-assignments': {
      get: {
        parameters: [{ $ref: '#/components/parameters/memberId' }],
        ...list('#/components/schemas/Assignment'),
      },
    },
    '/api/v1/departments': { get: list('#/components/schemas/Department') },
  },
  components: {
    parameters: { memberId: { name: 'memberId', in: 'query' } },
    schemas: {
      Member: { properties: { id: {}, status: {}, gameLicense: {}, displayName: {} } },
      Assignment: { allOf: [{ properties: { id: {}, memberId: {} } }, { properties: { departmentId: {} } }] },
      Department: { properties: { id: {}, name: {} } },
    },
  },
};

describe('checkAssumptions', () => {
  it('confirms, contradicts or reports as not described each assumption, following $refs and allOf', () => {
    const verdicts = Object.fromEntries(checkAssumptions(document).map((c) => [c.assumption, c]));
    expect(verdicts['members carry id, status, gameLicense and displayName or name']?.verdict).toBe(
      'confirmed',
    );
    expect(verdicts['members can be filtered by gameLicense']?.verdict).toBe('confirmed');
    expect(verdicts['assignments can be filtered by memberId']?.verdict).toBe('confirmed');
    expect(verdicts['assignments carry id, memberId, departmentId and rankId']).toMatchObject({
      verdict: 'contradicted',
      detail: 'missing rankId',
    });
    expect(verdicts['departments carry id and name']?.verdict).toBe('confirmed');
    expect(verdicts['ranks carry id, departmentId, name and position']?.verdict).toBe('not described');
  });

  it('answers a document without paths instead of throwing', () => {
    expect(checkAssumptions('<html>')).toEqual([
      {
        assumption: 'the OpenAPI description can be read',
        verdict: 'contradicted',
        detail: 'no `paths` in it',
      },
    ]);
    expect(checkAssumptions(null)[0]?.verdict).toBe('contradicted');
  });
});
