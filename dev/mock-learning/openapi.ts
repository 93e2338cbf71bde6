import { openApiDocument as buildDocument, openApiPaths } from '../mock-http/openapi-document';
import { ERROR_STATUS } from './api-error';
import { KEY_PREFIX } from './api-keys';
import { linkRequestReplySchema, ref, SCHEMAS } from './openapi-schemas';
import { API, DEFAULT_LINK_REPLY_NAMES, type LinkReplyNames, type Route } from './route';

function security(route: Route): object {
  const { access } = route;
  if (access.kind === 'public') return { security: [] };
  const scopes = access.kind === 'scope' ? [access.scope] : [];
  return {
    security: [{ bearerAuth: scopes }, { apiKeyHeader: scopes }],
    'x-required-scope': access.kind === 'scope' ? access.scope : null,
    'x-required-flags': access.kind === 'scope' ? ['api_access', ...access.flags] : [],
  };
}

function operation(route: Route): object {
  const responses: Record<string, object> = {};
  for (const [status, [description, schema]] of Object.entries(route.doc.responses)) {
    responses[status] = schema
      ? { description, content: { 'application/json': { schema } } }
      : { description };
  }
  responses.default = {
    description: 'Failure: { error: { code, message, details? } }',
    content: { 'application/json': { schema: ref('Error') } },
  };
  return {
    operationId: `${route.method.toLowerCase()}${route.pattern.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c?: string) => (c ?? '').toUpperCase())}`,
    summary: route.summary,
    ...(route.doc.parameters ? { parameters: route.doc.parameters } : {}),
    ...(route.doc.requestBody ? { requestBody: route.doc.requestBody } : {}),
    ...security(route),
    responses,
  };
}

/** The OpenAPI 3.1 description of exactly what this mock serves, built from its route table. */
export function openApiDocument(
  routes: readonly Route[],
  baseUrl: string,
  linkReplyNames: LinkReplyNames = DEFAULT_LINK_REPLY_NAMES,
): object {
  return buildDocument({
    title: 'Learning partner API (mock)',
    baseUrl,
    paths: openApiPaths(routes, operation),
    schemas: { ...SCHEMAS, LinkRequestReply: linkRequestReplySchema(linkReplyNames) },
    bearerDescription: `Authorization: Bearer ${KEY_PREFIX}_<prefix>_<secret>; enroll:write includes read`,
    apiKeyDescription: 'Second way (assumption)',
    extensions: {
      'x-key-identity-path': `${API}/me`,
      'x-public-catalog-path': `${API}/catalog/{alias}`,
      'x-error-statuses': ERROR_STATUS,
      'x-feature-flags': ['discord', 'gamification', 'api_access'],
    },
  });
}
