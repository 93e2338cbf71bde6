import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import { call } from './http';

let mock: MockLearning;
beforeAll(async () => {
  mock = await startMockLearning();
});
afterAll(() => mock.close());

describe('mock learning public catalog', () => {
  it('answers without a key with the courses marked public', async () => {
    const reply = await call(mock, '/catalog/lsrp-academy', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.json.org).toBe('lsrp-academy');
    expect(reply.json.requested_org).toBe('lsrp-academy');
    expect(reply.json.courses.map((c: { title: string }) => c.title)).toEqual([
      'Police Academy',
      'Fire Academy',
    ]);
    expect(Object.keys(reply.json.courses[0]).sort()).toEqual(['description', 'id', 'title']);
  });

  it('keeps an old alias working after a rename: org is the current alias, requested_org the old one', async () => {
    const reply = await call(mock, '/catalog/lsrp-training', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ org: 'lsrp-academy', requested_org: 'lsrp-training' });
  });

  it('follows a rename at run time and answers 404 for an unknown alias or a disabled catalog', async () => {
    const other = await startMockLearning();
    try {
      other.data.renameOrg('lsrp-college');
      for (const alias of ['lsrp-academy', 'lsrp-training']) {
        expect((await call(other, `/catalog/${alias}`, { key: null })).json.org).toBe('lsrp-college');
      }
      expect((await call(other, '/me', { key: other.keys.read })).json.org.alias).toBe('lsrp-college');
      expect((await call(other, '/catalog/somebody-else', { key: null })).status).toBe(404);
      other.org.publicCatalog = false;
      expect((await call(other, '/catalog/lsrp-college', { key: null })).json.error.code).toBe('not_found');
    } finally {
      await other.close();
    }
  });
});

describe('mock learning openapi.json', () => {
  it('is an OpenAPI 3.1 document served without a key', async () => {
    const reply = await call(mock, '/api/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.json.openapi).toBe('3.1.0');
    expect(reply.json.servers).toEqual([{ url: mock.url }]);
  });

  it('describes every served path, including the ones the document leaves unstated', async () => {
    const { json } = await call(mock, '/api/openapi.json', { key: null });
    const ops = Object.entries(json.paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual(
      [
        'GET /api/openapi.json',
        'GET /api/public/v1/me',
        'GET /api/public/v1/catalog/{alias}',
        'GET /api/public/v1/courses',
        'GET /api/public/v1/enrollments/summary',
        'GET /api/public/v1/completions',
        'POST /api/public/v1/enrollments',
        'POST /api/public/v1/discord/link-requests',
        'GET /api/public/v1/discord/links/{discord_id}',
        'DELETE /api/public/v1/discord/links/{discord_id}',
        'GET /api/public/v1/discord/enrollments/{discord_id}',
        'GET /api/public/v1/discord/completions',
        'GET /api/public/v1/discord/expiring-certificates',
        'GET /api/public/v1/discord/gamification/{discord_id}',
        'GET /api/public/v1/gamification/leaderboard',
      ].sort(),
    );
    expect(json['x-key-identity-path']).toBe('/api/public/v1/me');
  });

  it('names the link-request reply, gamification and certificate fields and the error envelope', async () => {
    const { json } = await call(mock, '/api/openapi.json', { key: null });
    const schemas = json.components.schemas;
    const [pending, linked] = schemas.LinkRequestReply.oneOf;
    expect(Object.keys(pending.properties).sort()).toEqual([
      'already_linked',
      'code',
      'confirm_url',
      'expires_at',
    ]);
    expect(Object.keys(linked.properties).sort()).toEqual(['already_linked', 'user_sub']);
    expect(Object.keys(schemas.Gamification.properties)).toEqual(
      expect.arrayContaining(['xp', 'level', 'badges']),
    );
    expect(Object.keys(schemas.Gamification.properties.badges.items.properties)).toEqual(
      expect.arrayContaining(['id', 'name']),
    );
    expect(Object.keys(schemas.Certificate.properties)).toEqual(
      expect.arrayContaining(['discord_id', 'user_sub', 'course_id', 'title', 'issued_at', 'expires_at']),
    );
    expect(schemas.Error.properties.error.required).toEqual(['code', 'message']);
    const me = json.paths['/api/public/v1/me'].get;
    expect(me.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/KeyIdentity',
    });
  });

  it('states the scope and flags each operation needs', async () => {
    const { json } = await call(mock, '/api/openapi.json', { key: null });
    const gamification = json.paths['/api/public/v1/discord/gamification/{discord_id}'].get;
    expect(gamification['x-required-scope']).toBe('read');
    expect(gamification['x-required-flags']).toEqual(['api_access', 'discord', 'gamification']);
    expect(json.paths['/api/public/v1/enrollments'].post['x-required-scope']).toBe('enroll:write');
    expect(json.paths['/api/public/v1/catalog/{alias}'].get.security).toEqual([]);
    expect(json.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
