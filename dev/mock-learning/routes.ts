import { catalogRoutes } from './handlers/catalog';
import { discordRoutes } from './handlers/discord';
import { gamificationRoutes } from './handlers/gamification';
import { partnerRoutes } from './handlers/partner';
import { openApiDocument } from './openapi';
import type { Route } from './route';

/** The route table of one server (openapi.json describes the table, so it is built per server). */
export function buildRoutes(): Route[] {
  const routes: Route[] = [...partnerRoutes, ...discordRoutes, ...gamificationRoutes, ...catalogRoutes];
  routes.push({
    method: 'GET',
    pattern: '/api/openapi.json',
    access: { kind: 'public' },
    summary: 'This OpenAPI 3.1 document',
    doc: { responses: { '200': ['OpenAPI 3.1', { type: 'object' }] } },
    handle: ({ baseUrl, linkReplyNames }) => ({ body: openApiDocument(routes, baseUrl, linkReplyNames) }),
  });
  return routes;
}
