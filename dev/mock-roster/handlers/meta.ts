import { openApiDocument } from '../openapi';
import type { Route } from '../route';

/** Self-description routes; they need the whole table, so they take it lazily. */
export function metaRoutes(all: () => readonly Route[], baseUrl: () => string): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/api/v1',
      access: { kind: 'public' },
      summary: 'Endpoint index',
      handle: () => ({
        data: {
          version: 'v1',
          openapi: `${baseUrl()}/api/v1/openapi.json`,
          endpoints: all().map((r) => ({
            method: r.method,
            path: r.pattern.replace(/:(\w+)/g, '{$1}'),
            scopes: r.access.kind === 'scope' ? r.access.anyOf : [],
            auth: r.access.kind !== 'public',
            summary: r.summary,
          })),
        },
      }),
    },
    {
      method: 'GET',
      pattern: '/api/v1/whoami',
      access: { kind: 'key' },
      summary: 'Confirms the key is live; its community and scopes',
      schema: 'Whoami',
      handle: (ctx) => {
        const key = ctx.key!;
        const { id, name } = ctx.store.data.community;
        return {
          data: {
            valid: true,
            community: { id, name },
            scopes: key.scopes,
            key: { id: key.id, name: key.name, rateLimitPerMinute: key.perMinute },
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/openapi.json',
      access: { kind: 'public' },
      summary: 'This OpenAPI 3.1 document',
      handle: ({ faults }) => ({
        data: faults.openApi === undefined ? openApiDocument(all(), baseUrl()) : faults.openApi,
        raw: true,
      }),
    },
  ];
}
