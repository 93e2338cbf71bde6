import { ERROR_STATUS } from './api-error';
import { DEFAULT_LIMIT, MAX_LIMIT } from './list-query';
import { SCHEMAS } from './openapi-schemas';
import type { Route } from './route';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function envelope(schema: string | undefined, list: boolean): object {
  const item = schema ? ref(schema) : {};
  return {
    type: 'object',
    required: ['success', 'data', 'meta'],
    properties: {
      success: { const: true },
      data: list ? { type: 'array', items: item } : item,
      meta: {
        type: 'object',
        required: list ? ['request_id', 'pagination'] : ['request_id'],
        properties: { request_id: { type: 'string' }, ...(list ? { pagination: ref('Pagination') } : {}) },
      },
    },
  };
}

function parameters(route: Route): object[] {
  const path = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const list = route.list;
  if (!list) return path;
  const q = (name: string, schema: object, description: string) => ({
    name,
    in: 'query',
    schema,
    description,
  });
  return [
    q('page', { type: 'integer', minimum: 1, default: 1 }, 'Page number'),
    q('limit', { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, 'Page size'),
    q('sort', { type: 'string', enum: list.sortable.flatMap((f) => [f, `-${f}`]) }, 'Leading - = descending'),
    q('q', { type: 'string' }, `Searches ${list.searchable.join(', ') || 'nothing'}`),
    ...(list.includes.length > 0
      ? [q('include', { type: 'string', enum: list.includes }, 'Comma-separated related records to expand')]
      : []),
    ...list.filters.map((f) => ({
      ...q(f, { type: 'array', items: { type: 'string' } }, 'Exact filter; repeat for "either value"'),
      style: 'form',
      explode: true,
    })),
    ...list.dates.flatMap((f) => [
      q(`${f}.after`, { type: 'string', format: 'date-time' }, `${f} after (ISO 8601, UTC)`),
      q(`${f}.before`, { type: 'string', format: 'date-time' }, `${f} before (ISO 8601, UTC)`),
    ]),
  ];
}

/** The OpenAPI 3.1 description of exactly what this mock serves, built from its route table. */
export function openApiDocument(routes: readonly Route[], baseUrl: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = route.pattern.replace(/:(\w+)/g, '{$1}');
    const scopes = route.access.kind === 'scope' ? route.access.anyOf : [];
    const operation: Record<string, unknown> = {
      summary: route.summary,
      parameters: parameters(route),
      security: route.access.kind === 'public' ? [] : [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      'x-required-scopes': scopes,
      responses: {
        '200': {
          description: 'Success',
          content: { 'application/json': { schema: envelope(route.schema, !!route.list) } },
        },
        default: { description: 'Failure', content: { 'application/json': { schema: ref('Error') } } },
      },
    };
    if (route.method === 'PATCH') {
      operation.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['rankId'],
              additionalProperties: false,
              properties: { rankId: { type: 'string' } },
            },
          },
        },
      };
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Roster service API (mock)', version: 'v1' },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <prefix>_<id>_<secret>',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
    'x-error-statuses': ERROR_STATUS,
    'x-rate-limits': { perMinute: 120, perDay: 25_000, window: 'fixed (calendar minute, UTC day)' },
  };
}
