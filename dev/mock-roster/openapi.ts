import {
  openApiDocument as buildDocument,
  openApiPaths,
  schemaRef as ref,
} from '../mock-http/openapi-document';
import { ERROR_STATUS } from './api-error';
import { DEFAULT_LIMIT, MAX_LIMIT } from './list-query';
import { SCHEMAS } from './openapi-schemas';
import type { Route } from './route';

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

/** The operation of one route: its scopes, list parameters and enveloped success. */
function operation(route: Route): object {
  const operation: Record<string, unknown> = {
    summary: route.summary,
    parameters: parameters(route),
    security: route.access.kind === 'public' ? [] : [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    'x-required-scopes': route.access.kind === 'scope' ? route.access.anyOf : [],
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
  return operation;
}

/** The OpenAPI 3.1 description of exactly what this mock serves, built from its route table. */
export function openApiDocument(routes: readonly Route[], baseUrl: string): object {
  return buildDocument({
    title: 'Roster service API (mock)',
    baseUrl,
    paths: openApiPaths(routes, operation),
    schemas: SCHEMAS,
    bearerDescription: 'Authorization: Bearer <prefix>_<id>_<secret>',
    extensions: {
      'x-error-statuses': ERROR_STATUS,
      'x-rate-limits': { perMinute: 120, perDay: 25_000, window: 'fixed (calendar minute, UTC day)' },
    },
  });
}
