import { describe, expect, it } from 'vitest';
import { defaultLayout } from '../../../../src/features/training/api/api-layout';
import { discoverLayout } from '../../../../src/features/training/api/openapi-discovery';

const ok = (schema: object) => ({ responses: { '200': { content: { 'application/json': { schema } } } } });

/** A small OpenAPI document with unusual names, to prove they are read rather than assumed. */
const document = {
  openapi: '3.1.0',
  paths: {
    '/api/public/v1/whoami': { get: ok({ $ref: '#/components/schemas/Identity' }) },
    '/api/public/v1/public/{org_alias}': {
      get: ok({ properties: { org: {}, requested_org: {}, courses: {} } }),
    },
    '/api/public/v1/discord/link-requests': {
      post: {
        responses: {
          '201': {
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { properties: { link_code: {}, verify_url: {}, expiry: {} } },
                    { properties: { already_linked: {} } },
                  ],
                },
              },
            },
          },
        },
      },
    },
    '/api/public/v1/discord/gamification/{id}': {
      get: ok({ properties: { experience_points: {}, current_level: {}, badge_list: {} } }),
    },
    '/api/public/v1/discord/completions': {
      get: {
        parameters: [{ in: 'query', name: 'cursor' }, { $ref: '#/components/parameters/PerPage' }],
        ...ok({}),
      },
    },
  },
  components: {
    schemas: { Identity: { properties: { tenant_id: {}, scopes: {}, flags: {} } } },
    parameters: { PerPage: { in: 'query', name: 'per_page' } },
  },
};

describe('OpenAPI discovery', () => {
  it('finds the link reply fields by type and format when their names say nothing', () => {
    const neutral = structuredClone(document) as typeof document;
    (neutral.paths as Record<string, unknown>)['/api/public/v1/discord/link-requests'] = {
      post: {
        responses: {
          '201': {
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    {
                      properties: {
                        already_linked: { const: false },
                        valid_through: { type: 'string', format: 'date-time' },
                        destination: { type: 'string', format: 'uri' },
                        created: { type: 'string', format: 'date-time', description: 'When it was made' },
                        ticket: { type: 'string', pattern: '^[A-Z2-9]{6}$' },
                      },
                    },
                    { properties: { already_linked: { const: true }, user_sub: { type: 'string' } } },
                  ],
                },
              },
            },
          },
        },
      },
    };
    expect(discoverLayout(neutral).layout.linkReply).toEqual({
      code: 'ticket',
      confirmUrl: 'destination',
      expiresAt: 'valid_through',
    });
  });

  it('believes the schema over names that mislead, beside other strings the reply echoes', () => {
    const misleading = structuredClone(document) as typeof document;
    const pending = {
      type: 'object',
      properties: {
        discord_id: { type: 'string', pattern: '^\\d+$', description: 'The Discord user asked for' },
        state: { type: 'string', enum: ['pending'] },
        code: { type: 'string', format: 'uri', description: 'Page where the member confirms, signed in' },
        url: { type: 'string', maxLength: 8, description: 'What the member enters on that page' },
        lapse: { type: 'string', format: 'date-time' },
      },
    };
    (misleading.paths as Record<string, unknown>)['/api/public/v1/discord/link-requests'] = {
      post: { responses: { '201': { content: { 'application/json': { schema: pending } } } } },
    };
    expect(discoverLayout(misleading).layout.linkReply).toEqual({
      code: 'url',
      confirmUrl: 'code',
      expiresAt: 'lapse',
    });
  });

  it('finds the unstated paths and field names, following $ref and oneOf', () => {
    const found = discoverLayout(document);
    expect(found.problem).toBeUndefined();
    expect(found.layout).toEqual({
      identityPath: '/whoami',
      catalogPath: '/public/{alias}',
      linkReply: { code: 'link_code', confirmUrl: 'verify_url', expiresAt: 'expiry' },
      progress: { experience: 'experience_points', level: 'current_level', badges: 'badge_list' },
      paging: { page: 'cursor', limit: 'per_page' },
    });
    expect(found.notes.every((n) => n.source === 'found')).toBe(true);
  });

  it('keeps defaults, marked assumed, for what the document does not describe', () => {
    const found = discoverLayout({ openapi: '3.1.0', paths: { '/api/public/v1/courses': { get: ok({}) } } });
    expect(found.layout).toEqual(defaultLayout);
    expect(found.notes.map((n) => n.source)).toEqual(['assumed', 'assumed', 'assumed', 'assumed', 'assumed']);
  });

  it.each([null, 'text', [], { paths: 3 }, { openapi: '3.1.0' }])(
    'tolerates a document of the wrong shape: %j',
    (doc) => {
      const found = discoverLayout(doc);
      expect(found.layout).toEqual(defaultLayout);
      expect(found.problem).toMatch(/no `paths`/);
    },
  );

  it('does not loop on a self-referencing $ref', () => {
    const loop = {
      paths: { '/api/public/v1/me': { get: ok({ $ref: '#/components/schemas/A' }) } },
      components: { schemas: { A: { $ref: '#/components/schemas/A' } } },
    };
    expect(discoverLayout(loop).layout.identityPath).toBe('/me');
  });
});
