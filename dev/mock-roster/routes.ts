import { activityRoutes } from './handlers/activity';
import { assignmentRoutes } from './handlers/assignments';
import { catalogRoutes } from './handlers/catalog';
import { memberRoutes } from './handlers/members';
import { metaRoutes } from './handlers/meta';
import type { Route } from './route';

/** The route table of one server (meta routes describe the table, so it is built per server). */
export function buildRoutes(baseUrl: () => string): Route[] {
  const routes: Route[] = [];
  routes.push(
    ...metaRoutes(() => routes, baseUrl),
    ...memberRoutes,
    ...assignmentRoutes,
    ...catalogRoutes,
    ...activityRoutes,
  );
  return routes;
}
