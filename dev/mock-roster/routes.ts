import { activityRoutes } from './handlers/activity';
import { assignmentRoutes } from './handlers/assignments';
import { catalogRoutes } from './handlers/catalog';
import { memberRoutes } from './handlers/members';
import { metaRoutes } from './handlers/meta';
import { matchPattern, type Route } from './route';

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

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

export function findRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}
