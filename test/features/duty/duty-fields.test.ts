import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../dev/mock-roster/openapi';
import { buildRoutes } from '../../../dev/mock-roster/routes';
import { describeDutyFields, readDutyFields } from '../../../src/features/duty/duty-fields';

const mockDescription = () =>
  openApiDocument(
    buildRoutes(() => 'http://x'),
    'http://x',
  );

/** A description of the duty-sessions list whose record has `properties`, filterable by `filters`. */
function described(properties: Record<string, unknown>, filters: string[], sortEnum?: string[]) {
  return {
    paths: {
      '/api/v1/duty-sessions': {
        get: {
          parameters: [
            ...filters.map((name) => ({ name, in: 'query', schema: { type: 'array' } })),
            {
              name: 'sort',
              in: 'query',
              schema: sortEnum ? { type: 'string', enum: sortEnum } : { type: 'string' },
            },
          ],
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/S' } } },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: { schemas: { S: { type: 'object', properties } } },
  };
}

describe('duty session fields read from the OpenAPI description', () => {
  it("finds the mock's unguessable names by what their descriptions say", () => {
    const reading = readDutyFields(mockDescription());
    expect(reading).toEqual({
      ok: true,
      fields: {
        member: 'rosterRef',
        end: 'stoodDownAt',
        duration: { field: 'onDutySeconds', unitMs: 1000 },
        sortable: { startedAt: true, createdAt: true },
      },
    });
    if (reading.ok)
      expect(describeDutyFields(reading.fields)).toBe(
        'rosterRef (member), startedAt (start), stoodDownAt (end), onDutySeconds (length, seconds)',
      );
  });

  it('reads plain names too, a length in minutes, and no sort by a field the list does not sort by', () => {
    const reading = readDutyFields(
      described(
        {
          id: { type: 'string' },
          memberId: { type: 'string' },
          startedAt: { type: 'string', format: 'date-time' },
          durationMinutes: { type: ['integer', 'null'] },
        },
        ['memberId'],
        ['id', '-id', 'createdAt', '-createdAt'],
      ),
    );
    expect(reading).toEqual({
      ok: true,
      fields: {
        member: 'memberId',
        end: null,
        duration: { field: 'durationMinutes', unitMs: 60_000 },
        sortable: { startedAt: false, createdAt: true },
      },
    });
  });

  it('says why when the description cannot tell', () => {
    expect(readDutyFields({})).toMatchObject({ ok: false, why: expect.stringMatching(/not described/) });
    const noFilter = described(
      {
        memberId: { type: 'string' },
        startedAt: { type: 'string' },
        endedAt: { type: 'string', format: 'date-time' },
      },
      [],
    );
    expect(readDutyFields(noFilter)).toMatchObject({ ok: false, why: expect.stringMatching(/not a filter/) });
    const noEnd = described({ memberId: { type: 'string' }, startedAt: { type: 'string' } }, ['memberId']);
    expect(readDutyFields(noEnd)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/end or its length/),
    });
    const noStart = described({ memberId: { type: 'string' } }, ['memberId']);
    expect(readDutyFields(noStart)).toMatchObject({ ok: false, why: expect.stringMatching(/no startedAt/) });
  });
});
